import { eq, inArray } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { billingCustomers, proCheckouts, user } from "#server/platform/db/schema";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import type { SandboxProvider } from "#server/providers/payments/sandbox/provider";
import { sandboxCustomers, sandboxPrices } from "#server/providers/payments/sandbox/schema";
import { payProCheckout } from "#server/providers/payments/sandbox/pro-pay";
import { testSandbox, withOutage } from "#tests/support/test-sandbox";
import { buyProAtSandbox, recordingCalls } from "#tests/support/test-sandbox-extras";
import { buildProSession, proPurchaseRule, proReturnUrls } from "./checkout";
import { ensureBillingCustomer } from "./customers";
import { PRO_PLAN_KEYS, PRO_PLANS } from "#isomorphic/pro-plans";
import { createProPortalLink, providerBillingUrl } from "./portal";
import { sandboxHostedPages } from "#server/providers/payments/sandbox/provider";
import { stripeHostedPages } from "#server/providers/payments/stripe/provider";
import { ensuringProPricesOnce, PRO_PRICE_SPECS, proPriceIds } from "./prices";
import type { ProStatus } from "./pro-status";
import { refreshAfterCheckout, refreshProMembership, REFRESH_INTERVAL_MS } from "./refresh";
import { notificationDeps, PAYING_CARD } from "#tests/support/payments";

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
    const sandbox = { hostedPages: sandboxHostedPages(ORIGIN) };
    expect(providerBillingUrl(`${ORIGIN}/sandbox/pro-checkout/cs_sbx_1`, sandbox)).toBe(`${ORIGIN}/sandbox/pro-checkout/cs_sbx_1`);
    expect(providerBillingUrl(`${ORIGIN}/sandbox/portal/cus_sbx_1?sig=x`, sandbox)).toBe(`${ORIGIN}/sandbox/portal/cus_sbx_1?sig=x`);
    expect(providerBillingUrl(`${ORIGIN}/app/account`, sandbox)).toBeNull();
    expect(providerBillingUrl("https://evil.example/sandbox/portal/cus_1", sandbox)).toBeNull();
    const stripe = { hostedPages: stripeHostedPages() };
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
  const sandbox = testSandbox(database);
  // The sandbox with its calls written down (`seen`), any of them failing as an unreachable provider's would (`down`).
  let provider: SandboxProvider;
  let unwrapped: SandboxProvider;
  let seen: ReturnType<typeof recordingCalls<SandboxProvider>>["seen"];
  let down: ReturnType<typeof withOutage>["down"];
  let uid: string;

  beforeEach(async () => {
    const outage = withOutage(sandbox.provider);
    down = outage.down;
    ({ provider: unwrapped, seen } = recordingCalls(outage.provider));
    provider = ensuringProPricesOnce(unwrapped);
    uid = `buyer_${crypto.randomUUID()}`;
    await db().insert(user).values({ id: uid, name: "Buyer", email: `${uid}@pro.example`, emailVerified: true });
  });

  const session = (plan: (typeof PRO_PLAN_KEYS)[number]) => buildProSession(db(), provider, { uid, email: `${uid}@pro.example`, plan, returnTo: "/app/sponsors", publicOrigin: ORIGIN });
  /** The person buys `plan` at the sandbox itself (not through the calls under test), and the product learns of it. */
  const becomes = async (plan: "launchpad" | "limitless") => {
    const customerId = await ensureBillingCustomer(db(), sandbox.provider, { uid, email: "x@pro.example" });
    await buyProAtSandbox(db(), sandbox.provider, { customerId, uid, plan });
    await refreshProMembership(db(), sandbox.provider, uid, notificationDeps(db()));
  };
  /** The person pays the checkout `session` opened, with the test card. */
  const pays = async (opened: Awaited<ReturnType<typeof session>>) => {
    if (opened.kind !== "SUCCESS" || opened.destination !== "checkout") throw new Error(`no checkout: ${JSON.stringify(opened)}`);
    const paid = await payProCheckout(db(), new URL(opened.url).pathname.split("/").at(-1)!, PAYING_CARD, sandbox.provider.now());
    if (paid.kind !== "SUCCESS" || paid.outcome !== "PAID") throw new Error(`the sandbox did not take the Pro payment: ${JSON.stringify(paid)}`);
  };
  const proPrices = () => db().select().from(sandboxPrices).where(inArray(sandboxPrices.lookupKey, PRO_PRICE_SPECS.map((s) => s.lookupKey)));

  it("ensures the prices once per process, one per lookup key, however many checkouts start at once", async () => {
    await Promise.all([session("launchpad"), session("star_power"), session("limitless"), proPriceIds(provider)]);
    expect(seen("ensureProPrices")).toHaveLength(1);
    expect((await proPrices()).map((p) => p.lookupKey).sort()).toEqual(PRO_PRICE_SPECS.map((s) => s.lookupKey).sort());
    // A second process (another provider object) finds the same prices by lookup key instead of making more.
    await unwrapped.ensureProPrices(PRO_PRICE_SPECS);
    expect(seen("ensureProPrices")).toHaveLength(2);
    expect(await proPrices()).toHaveLength(3);
  });

  it("two tabs at once make one billing customer", async () => {
    // The provider takes a while to answer, so the two tabs' calls overlap.
    const slow: SandboxProvider = { ...provider, createCustomer: (input) => new Promise((resolve) => setTimeout(resolve, 20)).then(() => provider.createCustomer(input)) };
    const ids = await Promise.all([ensureBillingCustomer(db(), slow, { uid, email: "a@pro.example" }), ensureBillingCustomer(db(), slow, { uid, email: "a@pro.example" })]);
    expect(new Set(ids).size).toBe(1);
    expect(new Set(seen("createCustomer").map((c) => c.idempotencyKey))).toEqual(new Set([`customer_${uid}`]));
    expect(await db().select().from(sandboxCustomers).where(eq(sandboxCustomers.uid, uid))).toHaveLength(1);
    expect(await db().select().from(billingCustomers).where(eq(billingCustomers.uid, uid))).toHaveLength(1);
  });

  it("opens a subscription checkout for Launchpad and Star Power, a payment for Limitless, each with its row's idempotency key", async () => {
    for (const plan of PRO_PLAN_KEYS) expect(await session(plan)).toMatchObject({ kind: "SUCCESS" });
    const calls = seen("createProCheckout");
    expect(calls.map((c) => [c.plan, c.mode])).toEqual([["launchpad", "subscription"], ["star_power", "subscription"], ["limitless", "payment"]]);
    const rows = await db().select().from(proCheckouts).where(eq(proCheckouts.uid, uid));
    expect(calls.map((c) => c.idempotencyKey).sort()).toEqual(rows.map((r) => `pro_checkout_${r.id}`).sort());
    expect(rows.every((r) => r.providerCheckoutId !== null)).toBe(true);
    expect(calls[0]).toMatchObject({ uid, successUrl: `${ORIGIN}/app/pro?checkout=success&returnTo=%2Fapp%2Fsponsors`, priceId: (await proPrices()).find((p) => p.lookupKey === PRO_PLANS.launchpad.lookupKey)!.id });
  });

  it("refuses the plan a person already has, sends a subscriber's switch to the portal, and sells a Limitless member nothing", async () => {
    await becomes("launchpad");
    expect(await session("launchpad")).toMatchObject({ kind: "ERROR", code: "aborted", message: "You already have Launchpad." });
    expect(await session("star_power")).toEqual({ kind: "SUCCESS", destination: "portal" });
    expect(await session("limitless")).toMatchObject({ kind: "SUCCESS" });
    await becomes("limitless");
    for (const plan of PRO_PLAN_KEYS) expect(await session(plan)).toMatchObject({ kind: "ERROR", code: "aborted" });
    expect(seen("createProCheckout").map((c) => c.plan)).toEqual(["limitless"]);
  });

  it("hands out the person's open checkout again for the same plan instead of making another", async () => {
    const first = await session("launchpad");
    expect(await session("launchpad")).toEqual(first);
    expect(await session("launchpad")).toEqual(first);
    expect(seen("createProCheckout").map((c) => c.plan)).toEqual(["launchpad"]);
    // Another plan is its own checkout; a checkout about to close is not handed out.
    expect(await session("star_power")).not.toEqual(first);
    const soon = new Date(Date.now() + 24 * 3600_000 - 5 * 60_000);
    expect(await buildProSession(db(), provider, { uid, email: "x@pro.example", plan: "launchpad", returnTo: "/app", publicOrigin: ORIGIN, now: soon })).not.toEqual(first);
    expect(seen("createProCheckout")).toHaveLength(3);
  });

  it("the return from checkout reads the provider only while a checkout is unsettled, at most once per interval", async () => {
    const t0 = new Date();
    // No checkout at all: the page shows what is stored and asks nothing.
    expect(await refreshAfterCheckout(db(), provider, uid, notificationDeps(db()), t0)).toEqual({ kind: "SUCCESS", outcome: "SKIPPED", because: "nothing-unsettled" });
    const launchpad = await session("launchpad");
    const before = seen("readProState").length;
    // Reloaded again and again: one read per interval.
    // The page's clock is the database's (checkouts are stamped by it): a moment after the checkout was opened.
    const moment = () => new Promise((resolve) => setTimeout(resolve, 5));
    await moment();
    const t1 = new Date();
    expect(await refreshAfterCheckout(db(), provider, uid, notificationDeps(db()), t1)).toMatchObject({ kind: "SUCCESS", outcome: "SYNCED" });
    for (let i = 0; i < 5; i++) expect(await refreshAfterCheckout(db(), provider, uid, notificationDeps(db()), new Date(t1.getTime() + 1000))).toEqual({ kind: "SUCCESS", outcome: "SKIPPED", because: "too-soon" });
    expect(seen("readProState").length - before).toBe(1);
    // A checkout opened since the last read earns one read of its own (back from paying a second plan at once).
    const limitless = await session("limitless");
    await moment();
    const afterNew = new Date();
    expect(await refreshAfterCheckout(db(), provider, uid, notificationDeps(db()), afterNew)).toMatchObject({ kind: "SUCCESS", outcome: "SYNCED" });
    expect(await refreshAfterCheckout(db(), provider, uid, notificationDeps(db()), afterNew)).toEqual({ kind: "SUCCESS", outcome: "SKIPPED", because: "too-soon" });
    expect(seen("readProState").length - before).toBe(2);
    // Paid: the next read (after the interval) settles the checkout, and after that nothing is read any more.
    await pays(launchpad);
    const later = new Date(afterNew.getTime() + REFRESH_INTERVAL_MS);
    expect(await refreshAfterCheckout(db(), provider, uid, notificationDeps(db()), later)).toMatchObject({ kind: "SUCCESS", outcome: "SYNCED", result: { after: "pro" } });
    expect(seen("readProState").length - before).toBe(3);
    // Launchpad is settled; the Limitless checkout stays open (a subscriber may still buy it), so reads go on, throttled.
    const rows = await db().select().from(proCheckouts).where(eq(proCheckouts.uid, uid));
    expect(rows.map((r) => [r.plan, r.settledAt !== null]).sort()).toEqual([["launchpad", true], ["limitless", false]]);
    expect(await refreshAfterCheckout(db(), provider, uid, notificationDeps(db()), new Date(later.getTime() + 1000))).toEqual({ kind: "SUCCESS", outcome: "SKIPPED", because: "too-soon" });
    // Limitless paid: everything is settled and the provider is not read any more.
    await pays(limitless);
    const latest = new Date(later.getTime() + REFRESH_INTERVAL_MS);
    expect(await refreshAfterCheckout(db(), provider, uid, notificationDeps(db()), latest)).toMatchObject({ kind: "SUCCESS", outcome: "SYNCED", result: { after: "lifetime" } });
    // That read found Launchpad still running beside Limitless: it ended it at the period's end and read the settled state once more.
    expect(seen("endSubscription")).toEqual([expect.objectContaining({ when: "period_end" })]);
    expect(seen("readProState").length - before).toBe(5);
    expect(await refreshAfterCheckout(db(), provider, uid, notificationDeps(db()), new Date(latest.getTime() + 10 * REFRESH_INTERVAL_MS))).toEqual({ kind: "SUCCESS", outcome: "SKIPPED", because: "nothing-unsettled" });
    expect(seen("readProState").length - before).toBe(5);
  });

  it("says the provider is unavailable when the checkout cannot be made, and leaves no customer twice", async () => {
    down.add("createProCheckout");
    expect(await session("launchpad")).toMatchObject({ kind: "ERROR", code: "unavailable" });
    down.delete("createProCheckout");
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
