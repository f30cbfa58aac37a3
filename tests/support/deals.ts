import crypto from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { dealFundings, deals, dealTerms, user, type DealDeliverable } from "#server/platform/db/schema";
import { startDealFunding } from "#server/domains/deals/funding";
import { receivePaymentEvent } from "#server/features/payment-webhooks/intake";
import { paymentEventSchema, type PaymentEvent } from "#server/providers/payments/events";
import { payCheckout } from "#server/providers/payments/sandbox/pay";
import type { SandboxProvider } from "#server/providers/payments/sandbox/provider";
import { sandboxEvents } from "#server/providers/payments/sandbox/schema";
import { moveDeal } from "#server/domains/deals/act";
import { openDeal } from "#server/domains/deals/open-deal";
import type { TermsFormFields } from "#server/domains/deals/terms-form";
import { parsedTerms } from "./deal-terms";
import { notificationDeps, PAYING_CARD, webhookDeps, type Payee } from "./payments";

// No "f": ids become names printed on invoices, and a PDF font sets "ff" as one ligature glyph,
// which the tests' text reader cannot split back into two letters.
const rand = () => crypto.randomBytes(5).toString("hex").replace(/f/g, "e");

export type FundedDeal = {
  dealId: string;
  sponsorUid: string;
  fundingId: string;
  checkoutId: string;
  paymentIntentId: string;
  chargeId: string;
  amount: number;
  transferGroup: string;
  /** The checkout's checkout.completed, as the sandbox stored it (delivered already unless `settle` was false). */
  completed: PaymentEvent;
};

/**
 * A sponsor made up for the test and their direct offer to `creatorUid`, already agreed at version 1,
 * written straight to the tables (no seeded briefs needed): one YouTube review unless said.
 */
export async function agreedOfferInDb(
  db: Db,
  creatorUid: string,
  terms: { price: number; deliverables?: DealDeliverable[]; sponsorApproves?: boolean },
): Promise<{ dealId: string; sponsorUid: string }> {
  const sponsorUid = `sponsor_${rand()}`;
  const dealId = `deal${rand()}`;
  await db.insert(user).values({ id: sponsorUid, name: `Sponsor ${sponsorUid}`, email: `${sponsorUid}@sponsor.example`, emailVerified: true });
  await db.insert(deals).values({
    id: dealId,
    origin: "offer",
    title: `Deal ${dealId}`,
    creatorUid,
    sponsorUid,
    openedBy: "sponsor",
    state: "agreed",
    waitingOn: null,
    pitch: "A review, please.",
    acceptedVersion: 1,
    acceptedBy: creatorUid,
    acceptedAt: new Date(),
  });
  await db.insert(dealTerms).values({
    dealId,
    version: 1,
    proposedBy: "sponsor",
    price: terms.price,
    deliverables: terms.deliverables ?? [{ channel: "YouTube", format: "A review", dueDate: "2099-03-01" }],
    usageRights: "none",
    ...(terms.sponsorApproves === undefined ? {} : { sponsorApproves: terms.sponsorApproves }),
  });
  return { dealId, sponsorUid };
}

/**
 * A deal with `payee` as its creator, agreed at `amount` cents (10% to the platform), paid at the
 * sandbox with the test card and booked by its own checkout.completed, delivered through the real
 * intake: what a sponsor's "Pay to book" leaves, without the deal room's seeded briefs. With
 * `settle: false` the event is not delivered: paid at the provider, not yet known to the app.
 */
export async function fundedDeal(db: Db, sandbox: SandboxProvider, payee: Payee, amount: number, { settle = true }: { settle?: boolean } = {}): Promise<FundedDeal> {
  const { dealId, sponsorUid } = await agreedOfferInDb(db, payee.uid, { price: amount });
  const started = await startDealFunding(db, sandbox, { uid: sponsorUid, dealId, publicOrigin: "http://app.test", feePercent: 10 });
  if (started.kind !== "SUCCESS") throw new Error(JSON.stringify(started));
  const [funding] = await db.select().from(dealFundings).where(eq(dealFundings.id, started.fundingId));
  const paid = await payCheckout(db, funding!.checkoutId!, { email: "brand@sponsor.example", ...PAYING_CARD }, sandbox.now(), sandbox.whyPayeeCannotBePaid);
  if (paid.kind !== "SUCCESS" || paid.outcome !== "PAID") throw new Error(JSON.stringify(paid));
  const [completed] = await storedSandboxEvents(db, "checkout.completed", "checkoutId", funding!.checkoutId!);
  if (settle) {
    const delivered = await receivePaymentEvent(db, completed!, webhookDeps(db, sandbox));
    if (delivered.kind !== "SUCCESS") throw new Error("the deal's checkout.completed was not handled");
  }
  const details = await sandbox.paymentDetails(paid.paymentIntentId);
  return { dealId, sponsorUid, fundingId: started.fundingId, checkoutId: funding!.checkoutId!, paymentIntentId: paid.paymentIntentId, chargeId: details.chargeId, amount, transferGroup: `deal_${dealId}`, completed: completed! };
}

/** The events of one type the sandbox stored whose payload's `field` is `value`, oldest first, as its outbox would send them. */
export async function storedSandboxEvents(db: Db, type: string, field: string, value: string): Promise<PaymentEvent[]> {
  const rows = await db
    .select({ payload: sandboxEvents.payload })
    .from(sandboxEvents)
    .where(and(eq(sandboxEvents.type, type), sql`${sandboxEvents.payload}->>${field} = ${value}`))
    .orderBy(sandboxEvents.created, sandboxEvents.id);
  return rows.map((row) => paymentEventSchema.parse(row.payload));
}

/** Delivers the sandbox's stored event of `type` for `checkoutId` to the webhook intake. */
export async function deliverStoredEvent(db: Db, sandbox: SandboxProvider, checkoutId: string, type: string) {
  const [event] = await storedSandboxEvents(db, type, "checkoutId", checkoutId);
  return receivePaymentEvent(db, event!, webhookDeps(db, sandbox));
}

/**
 * A deal made the way people make one on the seeded data: `creator` applies to `brief` with the
 * shared terms and `overrides` (tests/support/deal-terms.ts), and `sponsor`, the brief's poster,
 * accepts them as they stand.
 */
export async function agreedDeal(db: Db, people: { creator: string; sponsor: string; brief: string }, overrides: Partial<TermsFormFields> = {}): Promise<string> {
  const opened = await openDeal(db, notificationDeps(db), { uid: people.creator, opportunityId: people.brief, pitch: "Let me review it.", links: "", bioPageId: "", terms: parsedTerms(overrides), network: "203.0.113.9" });
  if (opened.kind !== "SUCCESS") throw new Error(JSON.stringify(opened));
  const accepted = await moveDeal(db, notificationDeps(db), { uid: people.sponsor, dealId: opened.dealId, move: { action: "accept", version: 1 }, network: "198.51.100.4" });
  if (accepted.kind !== "SUCCESS") throw new Error(JSON.stringify(accepted));
  return opened.dealId;
}

/** The sponsor's "Pay to book" on an agreed deal, paid at the sandbox, and its checkout.completed delivered. */
export async function payForDeal(db: Db, sandbox: SandboxProvider, sponsor: string, dealId: string, feePercent = 10): Promise<{ fundingId: string; paymentIntentId: string }> {
  const started = await startDealFunding(db, sandbox, { uid: sponsor, dealId, publicOrigin: "http://app.test", feePercent });
  if (started.kind !== "SUCCESS") throw new Error(JSON.stringify(started));
  const [funding] = await db.select().from(dealFundings).where(eq(dealFundings.id, started.fundingId));
  const paid = await payCheckout(db, funding!.checkoutId!, { email: "brand@sponsor.example", ...PAYING_CARD }, sandbox.now(), sandbox.whyPayeeCannotBePaid);
  if (paid.kind !== "SUCCESS" || paid.outcome !== "PAID") throw new Error(JSON.stringify(paid));
  const delivered = await deliverStoredEvent(db, sandbox, funding!.checkoutId!, "checkout.completed");
  if (delivered.kind !== "SUCCESS") throw new Error("the deal's checkout.completed was not handled");
  return { fundingId: started.fundingId, paymentIntentId: paid.paymentIntentId };
}
