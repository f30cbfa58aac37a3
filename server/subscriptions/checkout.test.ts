import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { billingCustomers, proCheckouts, user } from "#server/db/schema";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { FakePaymentProvider } from "#tests/support/fake-payment-provider";
import { buildProSession, proPurchaseRule, proReturnUrls } from "./checkout";
import { ensureBillingCustomer } from "./customers";
import { PRO_PLAN_KEYS, PRO_PLANS } from "./plans";
import { createProPortalLink, providerBillingUrl } from "./portal";
import { ensuringProPricesOnce, PRO_PRICE_SPECS, proPriceIds } from "./prices";
import type { ProStatus } from "./pro-status";
import { refreshAfterCheckout, refreshProMembership, REFRESH_INTERVAL_MS } from "./refresh";
import { notificationDeps } from "#tests/support/payments";

const ORIGIN = "http://app.test";
const LATER = new Date(Date.now() + 30 * 86400_000);
const status = (over: Partial<ProStatus>): ProStatus => ({ isPro: false, plan: null, currentPeriodEnd: null, renewalFailed: false, cancelAtPeriodEnd: false, stillBilling: null, ...over });

describe("what a person may buy", () => {
  it("not Pro: anything; the same plan never twice; a subscriber switches in the portal or buys Limitless; Limitless buys nothing", () => {
    for (const plan of PRO_PLAN_KEYS) expect(proPurchaseRule(status({}), plan)).toBe("BUY");
    const launchpad = status({ isPro: true, plan: "launchpad", currentPeriodEnd: LATER });
    expect(proPurchaseRule(launchpad, "launchpad")).toBe("ALREADY");
    expect(proPurchaseRule(launchpad, "star_power")).toBe("SWITCH_IN_PORTAL");
    expect(proPurchaseRule(launchpad, "limitless")).toBe("BUY");
    const limitless = status({ isPro: true, plan: "limitless" });
    for (const plan of PRO_PLAN_KEYS) expect(proPurchaseRule(limitless, plan)).toBe("ALREADY");
    // An ended plan is no plan: it may be bought again.
    expect(proPurchaseRule(status({ isPro: false, plan: "launchpad" }), "launchpad")).toBe("BUY");
  });

  it("sends the browser only to the provider's own billing pages", () => {
    const sandbox = { provider: "sandbox" as const, publicOrigin: ORIGIN };
    expect(providerBillingUrl(`${ORIGIN}/sandbox/pro-checkout/cs_sbx_1`, sandbox)).toBe(`${ORIGIN}/sandbox/pro-checkout/cs_sbx_1`);
    expect(providerBillingUrl(`${ORIGIN}/sandbox/portal/cus_sbx_1?sig=x`, sandbox)).toBe(`${ORIGIN}/sandbox/portal/cus_sbx_1?sig=x`);
    expect(providerBillingUrl(`${ORIGIN}/app/account`, sandbox)).toBeNull();
    expect(providerBillingUrl("https://evil.example/sandbox/portal/cus_1", sandbox)).toBeNull();
    const stripe = { provider: "stripe" as const, publicOrigin: ORIGIN };
    expect(providerBillingUrl("https://billing.stripe.com/p/session/test_1", stripe)).toBe("https://billing.stripe.com/p/session/test_1");
    expect(providerBillingUrl("https://checkout.stripe.com/c/pay/cs_1", stripe)).toBe("https://checkout.stripe.com/c/pay/cs_1");
    expect(providerBillingUrl("https://billing.stripe.com.evil.example/p", stripe)).toBeNull();
    expect(providerBillingUrl("https://user:pw@billing.stripe.com/p", stripe)).toBeNull();
  });

  it("carries returnTo through checkout's success and cancel addresses", () => {
    expect(proReturnUrls(ORIGIN, "/app/sponsors?tag=Gaming")).toEqual({
      successUrl: `${ORIGIN}/app/pro?checkout=success&returnTo=%2Fapp%2Fsponsors%3Ftag%3DGaming`,
      cancelUrl: `${ORIGIN}/app/pro?checkout=cancelled&returnTo=%2Fapp%2Fsponsors%3Ftag%3DGaming`,
    });
  });
});

describe.each(ENGINES)("Pro checkout on %s", (engine) => {
  const database = migratedDatabase(engine);
  const db = () => database.db;
  // As the composition root builds it: the provider asks for the Pro prices once.
  let provider: FakePaymentProvider;
  let unwrapped: FakePaymentProvider;
  let uid: string;

  beforeEach(async () => {
    unwrapped = new FakePaymentProvider();
    provider = ensuringProPricesOnce(unwrapped);
    uid = `buyer_${crypto.randomUUID()}`;
    await db().insert(user).values({ id: uid, name: "Buyer", email: `${uid}@pro.example`, emailVerified: true });
  });

  const session = (plan: (typeof PRO_PLAN_KEYS)[number]) => buildProSession(db(), provider, { uid, email: `${uid}@pro.example`, plan, returnTo: "/app/sponsors", publicOrigin: ORIGIN });
  const becomes = async (plan: "launchpad" | "limitless") => {
    const customerId = await ensureBillingCustomer(db(), provider, { uid, email: "x@pro.example" });
    provider.proStates.set(customerId, {
      customerId,
      subscriptions: plan === "limitless" ? [] : [{ subscriptionId: `sub_${uid}`, plan, status: "active", currentPeriodEnd: LATER, cancelAtPeriodEnd: false, created: new Date() }],
      lifetimePurchase: plan === "limitless" ? { paymentIntentId: `pi_${uid}`, paidAt: new Date() } : null,
    });
    await refreshProMembership(db(), provider, uid, notificationDeps(db()));
  };

  it("ensures the prices once per process, one per lookup key, however many checkouts start at once", async () => {
    await Promise.all([session("launchpad"), session("star_power"), session("limitless"), proPriceIds(provider)]);
    expect(provider.calls.ensureProPrices).toBe(1);
    expect([...provider.prices.keys()].sort()).toEqual(PRO_PRICE_SPECS.map((s) => s.lookupKey).sort());
    // A second process (another provider object) finds the same prices by lookup key instead of making more.
    await unwrapped.ensureProPrices(PRO_PRICE_SPECS);
    expect(provider.calls.ensureProPrices).toBe(2);
    expect(provider.prices.size).toBe(3);
  });

  it("two tabs at once make one billing customer", async () => {
    provider.customerDelayMs = 20;
    const ids = await Promise.all([ensureBillingCustomer(db(), provider, { uid, email: "a@pro.example" }), ensureBillingCustomer(db(), provider, { uid, email: "a@pro.example" })]);
    expect(new Set(ids).size).toBe(1);
    expect(new Set(provider.calls.createCustomer.map((c) => c.idempotencyKey))).toEqual(new Set([`customer_${uid}`]));
    expect(await db().select().from(billingCustomers).where(eq(billingCustomers.uid, uid))).toHaveLength(1);
  });

  it("opens a subscription checkout for Launchpad and Star Power, a payment for Limitless, each with its row's idempotency key", async () => {
    for (const plan of PRO_PLAN_KEYS) expect(await session(plan)).toMatchObject({ kind: "SUCCESS" });
    const calls = provider.calls.createProCheckout;
    expect(calls.map((c) => [c.plan, c.mode])).toEqual([["launchpad", "subscription"], ["star_power", "subscription"], ["limitless", "payment"]]);
    const rows = await db().select().from(proCheckouts).where(eq(proCheckouts.uid, uid));
    expect(calls.map((c) => c.idempotencyKey).sort()).toEqual(rows.map((r) => `pro_checkout_${r.id}`).sort());
    expect(rows.every((r) => r.providerCheckoutId !== null)).toBe(true);
    expect(calls[0]).toMatchObject({ uid, successUrl: `${ORIGIN}/app/pro?checkout=success&returnTo=%2Fapp%2Fsponsors`, priceId: provider.prices.get(PRO_PLANS.launchpad.lookupKey)!.priceId });
  });

  it("refuses the plan a person already has, sends a subscriber's switch to the portal, and sells a Limitless member nothing", async () => {
    await becomes("launchpad");
    expect(await session("launchpad")).toMatchObject({ kind: "ERROR", code: "aborted", message: "You already have Launchpad." });
    expect(await session("star_power")).toEqual({ kind: "SUCCESS", destination: "portal" });
    expect(await session("limitless")).toMatchObject({ kind: "SUCCESS" });
    await becomes("limitless");
    for (const plan of PRO_PLAN_KEYS) expect(await session(plan)).toMatchObject({ kind: "ERROR", code: "aborted" });
    expect(provider.calls.createProCheckout.map((c) => c.plan)).toEqual(["limitless"]);
  });

  it("hands out the person's open checkout again for the same plan instead of making another (issue 22 item 19)", async () => {
    const first = await session("launchpad");
    expect(await session("launchpad")).toEqual(first);
    expect(await session("launchpad")).toEqual(first);
    expect(provider.calls.createProCheckout.map((c) => c.plan)).toEqual(["launchpad"]);
    // Another plan is its own checkout; a checkout about to close is not handed out.
    expect(await session("star_power")).not.toEqual(first);
    const soon = new Date(Date.now() + 24 * 3600_000 - 5 * 60_000);
    expect(await buildProSession(db(), provider, { uid, email: "x@pro.example", plan: "launchpad", returnTo: "/app", publicOrigin: ORIGIN, now: soon })).not.toEqual(first);
    expect(provider.calls.createProCheckout).toHaveLength(3);
  });

  it("the return from checkout reads the provider only while a checkout is unsettled, at most once per interval", async () => {
    const t0 = new Date();
    // No checkout at all: the page shows what is stored and asks nothing.
    expect(await refreshAfterCheckout(db(), provider, uid, notificationDeps(db()), t0)).toEqual({ kind: "SUCCESS", outcome: "SKIPPED", because: "nothing-unsettled" });
    await session("launchpad");
    const customerId = await ensureBillingCustomer(db(), provider, { uid, email: "x@pro.example" });
    const before = provider.calls.readProState;
    // Reloaded again and again: one read per interval.
    // The page's clock is the database's (checkouts are stamped by it): a moment after the checkout was opened.
    const moment = () => new Promise((resolve) => setTimeout(resolve, 5));
    await moment();
    const t1 = new Date();
    expect(await refreshAfterCheckout(db(), provider, uid, notificationDeps(db()), t1)).toMatchObject({ kind: "SUCCESS", outcome: "SYNCED" });
    for (let i = 0; i < 5; i++) expect(await refreshAfterCheckout(db(), provider, uid, notificationDeps(db()), new Date(t1.getTime() + 1000))).toEqual({ kind: "SUCCESS", outcome: "SKIPPED", because: "too-soon" });
    expect(provider.calls.readProState - before).toBe(1);
    // A checkout opened since the last read earns one read of its own (back from paying a second plan at once).
    await session("limitless");
    await moment();
    const afterNew = new Date();
    expect(await refreshAfterCheckout(db(), provider, uid, notificationDeps(db()), afterNew)).toMatchObject({ kind: "SUCCESS", outcome: "SYNCED" });
    expect(await refreshAfterCheckout(db(), provider, uid, notificationDeps(db()), afterNew)).toEqual({ kind: "SUCCESS", outcome: "SKIPPED", because: "too-soon" });
    expect(provider.calls.readProState - before).toBe(2);
    // Paid: the next read (after the interval) settles the checkout, and after that nothing is read any more.
    provider.proStates.set(customerId, { customerId, subscriptions: [{ subscriptionId: `sub_${uid}`, plan: "launchpad", status: "active", currentPeriodEnd: LATER, cancelAtPeriodEnd: false, created: new Date() }], lifetimePurchase: null });
    const later = new Date(afterNew.getTime() + REFRESH_INTERVAL_MS);
    expect(await refreshAfterCheckout(db(), provider, uid, notificationDeps(db()), later)).toMatchObject({ kind: "SUCCESS", outcome: "SYNCED", result: { after: "pro" } });
    expect(provider.calls.readProState - before).toBe(3);
    // Launchpad is settled; the Limitless checkout stays open (a subscriber may still buy it), so reads go on, throttled.
    const rows = await db().select().from(proCheckouts).where(eq(proCheckouts.uid, uid));
    expect(rows.map((r) => [r.plan, r.settledAt !== null]).sort()).toEqual([["launchpad", true], ["limitless", false]]);
    expect(await refreshAfterCheckout(db(), provider, uid, notificationDeps(db()), new Date(later.getTime() + 1000))).toEqual({ kind: "SUCCESS", outcome: "SKIPPED", because: "too-soon" });
    // Limitless paid: everything is settled and the provider is not read any more.
    provider.proStates.set(customerId, { customerId, subscriptions: [], lifetimePurchase: { paymentIntentId: `pi_${uid}`, paidAt: new Date() } });
    const latest = new Date(later.getTime() + REFRESH_INTERVAL_MS);
    expect(await refreshAfterCheckout(db(), provider, uid, notificationDeps(db()), latest)).toMatchObject({ kind: "SUCCESS", outcome: "SYNCED", result: { after: "lifetime" } });
    expect(await refreshAfterCheckout(db(), provider, uid, notificationDeps(db()), new Date(latest.getTime() + 10 * REFRESH_INTERVAL_MS))).toEqual({ kind: "SUCCESS", outcome: "SKIPPED", because: "nothing-unsettled" });
    expect(provider.calls.readProState - before).toBe(4);
  });

  it("says the provider is unavailable when the checkout cannot be made, and leaves no customer twice", async () => {
    provider.failing.add("createProCheckout");
    expect(await session("launchpad")).toMatchObject({ kind: "ERROR", code: "unavailable" });
    provider.failing.delete("createProCheckout");
    expect(await session("launchpad")).toMatchObject({ kind: "SUCCESS" });
    expect(await db().select().from(billingCustomers).where(eq(billingCustomers.uid, uid))).toHaveLength(1);
  });

  it("opens the portal only for someone with a billing customer", async () => {
    expect(await createProPortalLink(db(), provider, uid, { publicOrigin: ORIGIN, returnPath: "/app/account" })).toMatchObject({ kind: "ERROR", code: "aborted", reason: "NO_CUSTOMER" });
    await becomes("launchpad");
    const link = await createProPortalLink(db(), provider, uid, { publicOrigin: ORIGIN, returnPath: "/app/account" });
    expect(link).toMatchObject({ kind: "SUCCESS" });
    expect(link.kind === "SUCCESS" && new URL(link.url).searchParams.get("return")).toBe(`${ORIGIN}/app/account`);
  });
});
