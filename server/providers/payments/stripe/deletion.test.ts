import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newSubscription } from "#tests/support/stripe-emulator/billing-objects";
import { startStripeEmulator, type StripeEmulator } from "#tests/support/stripe-emulator";
import type { PaymentProvider } from "#server/providers/payments/port";
import { stripeProviderOn } from "#tests/support/stripe-provider";

let emulator: StripeEmulator;
let provider: PaymentProvider;

beforeAll(async () => {
  emulator = await startStripeEmulator();
  provider = stripeProviderOn(emulator);
});
afterAll(() => emulator.close());

describe("closing a person's things at Stripe for an account deletion (emulator, real SDK)", () => {
  it("deletes the payout account; a second delete finds it gone and succeeds", async () => {
    const { accountId } = await provider.createConnectedAccount({ idempotencyKey: "account_leaving", email: "leaving@example.com", accountType: "individual", uid: "uid-leaving" });
    await provider.deleteConnectedAccount({ accountId });
    expect(emulator.store.accounts.has(accountId)).toBe(false);
    await expect(provider.deleteConnectedAccount({ accountId })).resolves.toBeUndefined();
  });

  it("refuses, with an error, an account that still holds a balance", async () => {
    const { accountId } = await provider.createConnectedAccount({ idempotencyKey: "account_balance", email: "rich@example.com", accountType: "individual", uid: "uid-rich" });
    emulator.store.accounts.get(accountId)!.metadata = { uid: "uid-rich", balance: "1200" };
    await expect(provider.deleteConnectedAccount({ accountId })).rejects.toThrow(/non-zero balance/);
    expect(emulator.store.accounts.has(accountId)).toBe(true);
  });

  it("deletes the billing customer, which ends their subscription at once", async () => {
    const price = await provider.ensureProPrices([{ plan: "launchpad", lookupKey: "sg_launchpad_del", productName: "Launchpad", amount: 200, currency: "usd", interval: "month" }]);
    const { customerId } = await provider.createCustomer({ idempotencyKey: "customer_leaving", uid: "uid-leaving", email: "leaving@example.com" });
    const subscription = newSubscription({ customer: customerId, price: emulator.store.prices.get(price.launchpad)!, metadata: { uid: "uid-leaving" } });
    emulator.store.subscriptions.set(subscription.id, subscription);

    await provider.deleteCustomer({ customerId });
    expect(emulator.store.customers.has(customerId)).toBe(false);
    expect(emulator.store.subscriptions.get(subscription.id)!.status).toBe("canceled");
    await expect(provider.deleteCustomer({ customerId })).resolves.toBeUndefined();
  });
});
