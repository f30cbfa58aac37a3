import { and, asc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { agreedDeal, deliverStoredEvent } from "#tests/support/deals";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { notificationDeps, PAYING_CARD } from "#tests/support/payments";
import { testSandbox, withOutage } from "#tests/support/test-sandbox";
import { dealActivity, dealFundings, ledgerEntries, notifications, opportunityPosts, profiles } from "#server/platform/db/schema";
import { payCheckout } from "#server/providers/payments/sandbox/pay";
import { stripeStandardFee } from "#server/providers/payments/sandbox/fees";
import { seedDatabase } from "#server/tools/seed";
import { DEMO_ACCOUNTS } from "#server/tools/seed/demo-accounts";
import { moveDeal } from "./act";
import { startDealFunding } from "./funding";
import { readDeal } from "./read";

const creator = DEMO_ACCOUNTS.creator.id;
const sponsor = DEMO_ACCOUNTS.sponsor.id;
const stranger = DEMO_ACCOUNTS.sponsor2.id;

describe.each(ENGINES)("paying for a deal on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sandbox = testSandbox(database);
  const db = () => database.db;
  let briefs: string[];

  const deliverStored = (checkoutId: string, type: string) => deliverStoredEvent(db(), sandbox.provider, checkoutId, type);
  const fund = (uid: string, dealId: string, provider = sandbox.provider) => startDealFunding(db(), provider, { uid, dealId, publicOrigin: "http://app.test", feePercent: 10 });
  const checkoutOf = async (fundingId: string) => (await db().select().from(dealFundings).where(eq(dealFundings.id, fundingId)))[0]!;

  const agreed = (price: string, brief: string) => agreedDeal(db(), { creator, sponsor, brief }, { price });

  beforeAll(async () => {
    await seedDatabase(db());
    const posts = await db().select({ id: opportunityPosts.id, kind: opportunityPosts.kind, poster: opportunityPosts.posterUid }).from(opportunityPosts);
    briefs = posts.filter((p) => p.poster === sponsor && p.kind === "brief").map((p) => p.id);
    expect(briefs.length).toBeGreaterThanOrEqual(2);
    // The demo creator has finished payout setup, as a creator must before accepting.
    await db().update(profiles).set({ paymentsEnabled: true }).where(eq(profiles.uid, creator));
  });

  it("books the deal once the sponsor's payment arrives, holding all of it on the ledger, once whatever the deliveries", async () => {
    const dealId = await agreed("750", briefs[0]!);
    expect(await fund(creator, dealId)).toMatchObject({ kind: "ERROR", reason: "SPONSOR_ONLY" });
    expect(await fund(stranger, dealId)).toMatchObject({ kind: "ERROR", code: "not-found" });

    const started = await fund(sponsor, dealId);
    if (started.kind !== "SUCCESS") throw new Error(JSON.stringify(started));
    // A second click while the checkout is open goes to the same checkout.
    expect(await fund(sponsor, dealId)).toMatchObject({ kind: "SUCCESS", url: started.url, fundingId: started.fundingId });
    const funding = await checkoutOf(started.fundingId);
    expect(funding).toMatchObject({ state: "open", amount: 75_000, currency: "usd", platformFee: 7_500, termsVersion: 1 });
    expect((await readDeal(db(), sponsor, dealId))!.view.funding).toMatchObject({ state: "open", amount: 75_000 });

    const paid = await payCheckout(db(), funding.checkoutId!, { email: "brand@sponsor.example", ...PAYING_CARD }, sandbox.provider.now(), sandbox.provider.whyPayeeCannotBePaid);
    if (paid.kind !== "SUCCESS" || paid.outcome !== "PAID") throw new Error(JSON.stringify(paid));
    expect(await deliverStored(funding.checkoutId!, "checkout.completed")).toMatchObject({ kind: "SUCCESS", outcome: "HANDLED" });
    expect(await deliverStored(funding.checkoutId!, "checkout.completed")).toMatchObject({ kind: "SUCCESS", outcome: "ALREADY_HANDLED" });

    const deal = (await readDeal(db(), creator, dealId))?.view;
    expect(deal).toMatchObject({ state: "funded", actions: ["request_cancel", "dispute"], funding: { state: "paid", amount: 75_000, currency: "usd" } });
    const entries = await db().select().from(ledgerEntries).where(eq(ledgerEntries.fundingId, started.fundingId));
    // All of it held by the platform; nothing has reached the creator yet.
    expect(entries.map((e) => [e.kind, e.gross, e.providerFee, e.platformFee, e.net, e.providerReference])).toEqual([
      ["deal_payment", 75_000, stripeStandardFee(75_000, "usd"), 75_000, 0, paid.paymentIntentId],
    ]);
    const activity = await db().select().from(dealActivity).where(eq(dealActivity.dealId, dealId)).orderBy(asc(dealActivity.seq));
    expect(activity.at(-1)).toMatchObject({ action: "fund", actorUid: null, fromState: "agreed", toState: "funded", termsVersion: 1 });
    for (const uid of [creator, sponsor]) {
      const told = await db().select().from(notifications).where(and(eq(notifications.uid, uid), eq(notifications.title, "Deal booked")));
      expect(told).toHaveLength(1);
      expect(told[0]!.message).toContain("$750");
    }

    // Booked: paying again, or walking away alone, is refused; cancelling takes both sides.
    expect(await fund(sponsor, dealId)).toMatchObject({ kind: "ERROR", reason: "ALREADY_FUNDED" });
    expect(await moveDeal(db(), notificationDeps(db()), { uid: sponsor, dealId, move: { action: "withdraw" }, network: "198.51.100.4" })).toMatchObject({ kind: "ERROR", reason: "WRONG_STATE" });
  });

  it("opens a new checkout after one expired or could not be opened, and refuses terms that are not agreed", async () => {
    const dealId = await agreed("200", briefs[1]!);
    const { provider, down } = withOutage(sandbox.provider);
    down.add("createHeldCheckout");
    expect(await fund(sponsor, dealId, provider)).toMatchObject({ kind: "ERROR", reason: "PROVIDER_UNAVAILABLE" });
    down.clear();
    const first = await fund(sponsor, dealId);
    if (first.kind !== "SUCCESS") throw new Error(JSON.stringify(first));
    const { checkoutId } = await checkoutOf(first.fundingId);
    // The sponsor never paid: a day later the sandbox closes the checkout, as Stripe does.
    const today = sandbox.clock.now;
    sandbox.clock.now = new Date(today.getTime() + 2 * 86_400_000);
    await sandbox.provider.expireDueCheckouts();
    sandbox.clock.now = today;
    expect(await deliverStored(checkoutId!, "checkout.expired")).toMatchObject({ kind: "SUCCESS", outcome: "HANDLED" });
    expect((await checkoutOf(first.fundingId)).state).toBe("expired");
    expect((await readDeal(db(), sponsor, dealId))!.view).toMatchObject({ state: "agreed", funding: null });

    const second = await fund(sponsor, dealId);
    expect(second).toMatchObject({ kind: "SUCCESS" });
    expect(second.kind === "SUCCESS" && second.fundingId).not.toBe(first.fundingId);
    const states = await db().select({ state: dealFundings.state }).from(dealFundings).where(eq(dealFundings.dealId, dealId)).orderBy(asc(dealFundings.createdAt));
    expect(states.map((s) => s.state)).toEqual(["failed", "expired", "open"]);
  });
});
