import { and, eq, like } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Config } from "#server/platform/config";
import { notifications, user } from "#server/platform/db/schema";
import { sandboxCustomers, sandboxOneTimePurchases, sandboxSubscriptions } from "#server/providers/payments/sandbox/schema";
import { createMailer } from "#server/platform/email/mailer";
import type { ProviderProState, ProviderSubscription } from "#server/providers/payments/port";
import { payProCheckout } from "#server/providers/payments/sandbox/pro-pay";
import { createSandboxProvider, type SandboxProvider } from "#server/providers/payments/sandbox/provider";
import { createStripeClient } from "#server/providers/payments/stripe/client";
import { createStripeProvider } from "#server/providers/payments/stripe/provider";
import { handleWebhookRequest } from "#server/features/payment-webhooks/http";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { notificationDeps, silentLogger } from "#tests/support/payments";
import { startStripeEmulator, type StripeEmulator } from "#tests/support/stripe-emulator";
import { buildProSession } from "./checkout";
import { readSettledProState, subscriptionsToEnd } from "./one-subscription";
import { PRO_PRICE_SPECS } from "./prices";
import { getProStatus } from "./pro-status";
import { refreshProMembership } from "./refresh";
import { EVERY_PAYEE_PAYABLE } from "#server/providers/payments/sandbox/pay";

const LATER = new Date(Date.now() + 30 * 86400_000);
const sub = (id: string, over: Partial<ProviderSubscription> = {}): ProviderSubscription => ({
  subscriptionId: id,
  plan: "launchpad",
  status: "active",
  currentPeriodEnd: LATER,
  cancelAtPeriodEnd: false,
  created: new Date("2026-11-01T00:00:00Z"),
  ...over,
});
const state = (subscriptions: ProviderSubscription[], lifetime = false): ProviderProState => ({
  customerId: "cus_1",
  subscriptions,
  lifetimePurchase: lifetime ? { paymentIntentId: "pi_1", paidAt: new Date() } : null,
});

describe("which subscriptions must end", () => {
  it("keeps the first of two running subscriptions and ends the later one now", () => {
    const first = sub("sub_a", { created: new Date("2026-11-01T00:00:00Z") });
    const second = sub("sub_b", { plan: "star_power", created: new Date("2026-11-02T00:00:00Z") });
    expect(subscriptionsToEnd(state([second, first]))).toEqual([{ subscriptionId: "sub_b", when: "now", reason: "second" }]);
    expect(subscriptionsToEnd(state([first]))).toEqual([]);
    // Ended, or not ours: nothing to do.
    expect(subscriptionsToEnd(state([first, sub("sub_c", { status: "canceled" }), sub("sub_d", { plan: null })]))).toEqual([]);
  });

  it("ends every running subscription at its period's end once Limitless is paid, and leaves those already ending", () => {
    expect(subscriptionsToEnd(state([sub("sub_a"), sub("sub_b", { status: "past_due" }), sub("sub_c", { cancelAtPeriodEnd: true })], true))).toEqual([
      { subscriptionId: "sub_a", when: "period_end", reason: "limitless" },
      { subscriptionId: "sub_b", when: "period_end", reason: "limitless" },
    ]);
    expect(subscriptionsToEnd(state([], true))).toEqual([]);
  });
});

describe("on Stripe, where a second payment cannot be refused, the webhook's read ends it (emulator)", () => {
  let emulator: StripeEmulator;
  let provider: ReturnType<typeof createStripeProvider>;
  beforeAll(async () => {
    emulator = await startStripeEmulator();
    provider = createStripeProvider({ stripe: createStripeClient({ secretKey: emulator.apiKey, apiUrl: emulator.url }), webhookSecrets: [emulator.webhookSecret] });
  });
  afterAll(() => emulator.close());

  const paid = async (customerId: string, plan: "launchpad" | "star_power" | "limitless", key: string) => {
    const prices = await provider.ensureProPrices(PRO_PRICE_SPECS);
    const { checkoutId } = await provider.createProCheckout({
      idempotencyKey: key,
      customerId,
      uid: "u1",
      plan,
      priceId: prices[plan],
      mode: plan === "limitless" ? "payment" : "subscription",
      successUrl: "http://localhost:3000/app/pro?checkout=success",
      cancelUrl: "http://localhost:3000/app/pro",
    });
    await emulator.completeCheckout(checkoutId);
  };

  it("two paid subscription checkouts: the later subscription is cancelled at once, once, however often it is read", async () => {
    const { customerId } = await provider.createCustomer({ idempotencyKey: "customer_two_subs", uid: "u1", email: "u1@example.com" });
    await paid(customerId, "launchpad", "pro_checkout_a");
    await new Promise((resolve) => setTimeout(resolve, 1100)); // Stripe's `created` is in seconds: the second is later.
    await paid(customerId, "star_power", "pro_checkout_b");
    const settled = await readSettledProState(provider, customerId);
    const running = settled.subscriptions.filter((s) => s.status === "active");
    expect(running.map((s) => s.plan)).toEqual(["launchpad"]);
    expect(settled.subscriptions.find((s) => s.plan === "star_power")!.status).toBe("canceled");
    await readSettledProState(provider, customerId);
    expect(emulator.calls("DELETE /v1/subscriptions/:id")).toBe(1);
  });

  it("Limitless paid by a subscriber: the subscription is set to end at its period's end, and Limitless is kept", async () => {
    const { customerId } = await provider.createCustomer({ idempotencyKey: "customer_limitless", uid: "u2", email: "u2@example.com" });
    await paid(customerId, "launchpad", "pro_checkout_c");
    await paid(customerId, "limitless", "pro_checkout_d");
    const settled = await readSettledProState(provider, customerId);
    expect(settled.lifetimePurchase).not.toBeNull();
    expect(settled.subscriptions).toEqual([expect.objectContaining({ plan: "launchpad", status: "active", cancelAtPeriodEnd: true })]);
  });
});

const SECRET = "a-session-secret-of-at-least-32-characters";
const ORIGIN = "http://app.test";
const CARD = { number: "4242 4242 4242 4242", expiry: "12 / 34", cvc: "123", postalCode: "94107" };
type Plan = "launchpad" | "star_power" | "limitless";

describe.each(ENGINES)("one live subscription per person on the sandbox, on %s", (engine) => {
  const database = migratedDatabase(engine);
  const db = () => database.db;
  let sandbox: SandboxProvider;

  beforeEach(() => {
    const config = { APP_NAME: "Sponsorgrid", SUPPORT_EMAIL: "support@test.example", PUBLIC_ORIGIN: ORIGIN, BIO_ORIGIN: "http://bio.test" } as Config;
    const mailer = createMailer({ db: db(), from: "Sponsorgrid <no-reply@test.example>", logger: silentLogger });
    // The outbox delivers to our real endpoint's handler, as in production.
    const deliver: typeof fetch = async (_url, init) =>
      handleWebhookRequest(new Request(`${ORIGIN}/api/payments/webhooks/sandbox`, { method: "POST", headers: init?.headers, body: init?.body }), "sandbox", {
        payments: sandbox,
        mailer,
        config,
        logger: silentLogger,
        db: db(),
        sessionSecret: SECRET,
      });
    sandbox = createSandboxProvider({ db: db(), config: { PUBLIC_ORIGIN: ORIGIN }, sessionSecret: SECRET, whyPayeeCannotBePaid: EVERY_PAYEE_PAYABLE, fetch: deliver });
  });

  const newPerson = async () => {
    const uid = `one_${crypto.randomUUID()}`;
    await db().insert(user).values({ id: uid, name: "One Sub", email: `${uid}@pro.example`, emailVerified: true });
    return uid;
  };
  const open = async (uid: string, plan: Plan) => buildProSession(db(), sandbox, { uid, email: `${uid}@pro.example`, plan, returnTo: "/app", publicOrigin: ORIGIN });
  const pay = (url: string) => payProCheckout(db(), new URL(url).pathname.split("/").pop()!, CARD, new Date());
  const customerOf = async (uid: string) => (await db().select().from(sandboxCustomers).where(eq(sandboxCustomers.uid, uid)))[0]!.id;
  const subscriptions = async (uid: string) => db().select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.customerId, await customerOf(uid)));
  const live = async (uid: string) => (await subscriptions(uid)).filter((s) => s.status === "active" || s.status === "past_due");
  const limitlessPaid = async (uid: string) => (await db().select().from(sandboxOneTimePurchases).where(eq(sandboxOneTimePurchases.customerId, await customerOf(uid)))).length;
  const proNotifications = async (uid: string) =>
    (await db().select().from(notifications).where(and(eq(notifications.uid, uid), like(notifications.kind, "pro-%")))).map((n) => n.message);

  it("opening launchpad, star_power, launchpad and paying all three makes one subscription; the second click on a plan reuses its checkout", async () => {
    const uid = await newPerson();
    const first = await open(uid, "launchpad");
    const second = await open(uid, "star_power");
    const third = await open(uid, "launchpad");
    if (!("url" in first) || !("url" in second) || !("url" in third)) throw new Error("no checkout");
    expect(third.url).toBe(first.url);
    expect(await pay(first.url)).toMatchObject({ kind: "SUCCESS", outcome: "PAID" });
    expect(await pay(second.url)).toMatchObject({ kind: "ERROR", reason: "ALREADY_PRO", holds: "SUBSCRIBED" });
    expect(await pay(third.url)).toMatchObject({ kind: "SUCCESS", outcome: "ALREADY_PAID" });
    expect(await live(uid)).toHaveLength(1);
  });

  it("two checkouts of one person paid at the same moment make one subscription", async () => {
    const uid = await newPerson();
    const urls = await Promise.all((["launchpad", "star_power"] as const).map(async (plan) => (await open(uid, plan)) as { url: string }));
    const results = await Promise.all(urls.map((c) => pay(c.url)));
    expect(results.map((r) => (r.kind === "SUCCESS" ? r.outcome : r.reason)).sort()).toEqual(["ALREADY_PRO", "PAID"]);
    expect(await live(uid)).toHaveLength(1);
  });

  it("a Launchpad member buying Limitless: the subscription ends at its period's end, said on the status, with the Limitless welcome", async () => {
    const uid = await newPerson();
    await pay(((await open(uid, "launchpad")) as { url: string }).url);
    await refreshProMembership(db(), sandbox, uid, notificationDeps(db()));
    await pay(((await open(uid, "limitless")) as { url: string }).url);
    await refreshProMembership(db(), sandbox, uid, notificationDeps(db()));
    const [subscription] = await subscriptions(uid);
    expect(subscription).toMatchObject({ status: "active", cancelAtPeriodEnd: true });
    expect(await getProStatus(db(), uid)).toMatchObject({ plan: "limitless", stillBilling: { plan: "launchpad", periodEnd: subscription!.currentPeriodEnd, renews: false } });
    expect(await proNotifications(uid)).toEqual(expect.arrayContaining([expect.stringMatching(/Launchpad plan is active/), expect.stringMatching(/Limitless plan is active/)]));
    // Limitless is sold once.
    expect(await open(uid, "limitless")).toMatchObject({ kind: "ERROR", code: "aborted" });
  });

  it("any sequence of opening, paying and buying Limitless: never two live subscriptions, never one renewing beside Limitless, Limitless paid once", async () => {
    const step = fc.oneof(
      fc.record({ kind: fc.constant("open" as const), plan: fc.constantFrom<Plan>("launchpad", "star_power", "limitless") }),
      fc.record({ kind: fc.constant("pay" as const), which: fc.nat(5) }),
      fc.record({ kind: fc.constant("sync" as const) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 10 }), async (steps) => {
        const uid = await newPerson();
        const opened: string[] = [];
        for (const s of steps) {
          if (s.kind === "open") {
            const result = await open(uid, s.plan);
            if ("url" in result) opened.push(result.url);
          } else if (s.kind === "pay" && opened.length > 0) {
            await pay(opened[s.which % opened.length]!);
          } else if (s.kind === "sync") {
            await refreshProMembership(db(), sandbox, uid, notificationDeps(db()));
          }
          if (opened.length === 0) continue;
          expect((await live(uid)).length).toBeLessThanOrEqual(1);
          expect(await limitlessPaid(uid)).toBeLessThanOrEqual(1);
        }
        if (opened.length === 0) return;
        // Once synced (the webhook or the return from checkout), nothing renews beside Limitless.
        await refreshProMembership(db(), sandbox, uid, notificationDeps(db()));
        if ((await limitlessPaid(uid)) === 1) expect((await live(uid)).filter((s) => !s.cancelAtPeriodEnd)).toEqual([]);
        const status = await getProStatus(db(), uid);
        if ((await live(uid)).length === 1 && status.plan === "limitless") expect(status.stillBilling).toMatchObject({ renews: false });
      }),
      { numRuns: 15 },
    );
  }, 120_000);
});

