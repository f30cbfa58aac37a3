import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadConfig } from "#server/platform/config";
import type { PaymentProvider } from "#server/providers/payments/port";
import { createPaymentProvider } from "#server/providers/payments/choose-provider";
import { startStripeEmulator, type StripeEmulator } from "#tests/support/stripe-emulator";

let emulator: StripeEmulator;
beforeAll(async () => {
  emulator = await startStripeEmulator({ connectWebhookSecret: "whsec_connectEndpoint" });
});
afterAll(() => emulator.close());

const sandboxStandIn = { name: "sandbox", displayName: "Sandbox" } as PaymentProvider;

describe("createPaymentProvider", () => {
  it("builds the sandbox when no Stripe keys are set, and only then asks for it", () => {
    const sandbox = vi.fn(() => sandboxStandIn);
    expect(createPaymentProvider(loadConfig({}), { sandbox })).toBe(sandboxStandIn);
    expect(sandbox).toHaveBeenCalledTimes(1);
  });

  it("builds Stripe from its keys, talking to STRIPE_API_URL, with both webhook secrets", async () => {
    const sandbox = vi.fn(() => sandboxStandIn);
    const config = loadConfig({
      STRIPE_SECRET_KEY: emulator.apiKey,
      STRIPE_WEBHOOK_SECRET: emulator.webhookSecret,
      STRIPE_CONNECT_WEBHOOK_SECRET: "whsec_connectEndpoint",
      STRIPE_API_URL: emulator.url,
    });
    const provider = createPaymentProvider(config, { sandbox });
    expect(sandbox).not.toHaveBeenCalled();
    expect(provider).toMatchObject({ name: "stripe", displayName: "Stripe" });

    const { accountId } = await provider.createConnectedAccount({ idempotencyKey: "account_setup", email: "m@example.com", accountType: "individual", uid: "u" });
    const [event] = await emulator.completeOnboarding(accountId);
    // A Connect event, signed with the Connect endpoint's secret.
    const signed = emulator.sign(event!);
    expect(provider.parseWebhook(Buffer.from(signed.payload), signed.header)).toMatchObject({ kind: "SUCCESS", event: { type: "account.updated", accountId, chargesEnabled: true } });
  });

  it("uses the sandbox when it is chosen even with Stripe keys", () => {
    const config = loadConfig({ PAYMENT_PROVIDER: "sandbox", STRIPE_SECRET_KEY: "sk_test_abc", STRIPE_WEBHOOK_SECRET: "whsec_abc" });
    expect(createPaymentProvider(config, { sandbox: () => sandboxStandIn })).toBe(sandboxStandIn);
  });
});
