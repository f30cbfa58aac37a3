import { and, eq, inArray, sql } from "drizzle-orm";
import { nanoid } from "nanoid";
import type { NotificationDeps } from "#server/domains/notifications/send";
import { recordDealPayment } from "#server/domains/payments/ledger/deal-ledger";
import { platformFeeFor } from "#server/domains/payments/ledger/fees";
import type { Db } from "#server/platform/db/client";
import { dealActivity, dealFundings, deals, dealTerms, user, type DealFundingState } from "#server/platform/db/schema";
import { refusal, success, type Refusal, type Success } from "#server/platform/errors";
import type { PaymentDetails, PaymentProvider } from "#server/providers/payments/port";
import { tellBothSides } from "./notices";
import { issueDealInvoice } from "./invoice-issue";
import { platformMay } from "./transitions";

/**
 * A deal's money before the work (ADR 0080): once the terms are agreed, the sponsor pays the whole
 * price by hosted card checkout; the platform holds the charge (separate charges and transfers, one
 * transfer group per deal), and the deal is booked only when the provider says the money arrived.
 */

export type FundingRefusal =
  | Refusal<"not-found", "NOT_FOUND">
  | Refusal<"aborted", "WRONG_STATE" | "ALREADY_FUNDED">
  | Refusal<"permission-denied", "SPONSOR_ONLY">
  | Refusal<"unavailable", "PROVIDER_UNAVAILABLE">;

const NO_SUCH_DEAL = refusal("not-found", "NOT_FOUND", "There is no such deal.");

export const fundingIdOf = (): string => `dfund_${nanoid(16)}`;
export const transferGroupOf = (dealId: string): string => `deal_${dealId}`;

type LiveFunding = typeof dealFundings.$inferSelect;

/** The checkout still worth sending the sponsor to: open, with at least a minute left. */
function stillOpen(funding: LiveFunding, now: Date): boolean {
  return funding.state === "open" && funding.checkoutUrl !== null && funding.expiresAt !== null && funding.expiresAt.getTime() - now.getTime() > 60_000;
}

/**
 * "Pay to book": the sponsor's hosted checkout for the accepted terms. A second click while the
 * first checkout is open sends them to the same one; an open checkout about to close is closed here
 * and a new one opened. Only the deal's sponsor may pay, and only an agreed deal.
 */
export async function startDealFunding(
  db: Db,
  provider: Pick<PaymentProvider, "createHeldCheckout">,
  input: { uid: string; dealId: string; publicOrigin: string; feePercent: number },
  now = new Date(),
): Promise<Success<{ url: string; fundingId: string }> | FundingRefusal> {
  type Opened = { fundingId: string; deal: typeof deals.$inferSelect; terms: typeof dealTerms.$inferSelect; email: string | null };
  const prepared = await db.transaction(async (tx): Promise<Success<{ reused: { url: string; fundingId: string } }> | Success<{ opened: Opened }> | FundingRefusal> => {
    const [deal] = await tx.select().from(deals).where(eq(deals.id, input.dealId)).for("update");
    if (!deal || (deal.sponsorUid !== input.uid && deal.creatorUid !== input.uid)) return NO_SUCH_DEAL;
    if (deal.sponsorUid !== input.uid) return refusal("permission-denied", "SPONSOR_ONLY", "Only the sponsor pays for a deal.");
    if (deal.state === "funded") return refusal("aborted", "ALREADY_FUNDED", "This deal is paid for and booked.");
    if (deal.state !== "agreed" || deal.acceptedVersion === null) return refusal("aborted", "WRONG_STATE", "Only agreed terms can be paid for.");

    const [live] = await tx.select().from(dealFundings).where(and(eq(dealFundings.dealId, deal.id), inArray(dealFundings.state, ["open", "paid"])));
    if (live?.state === "paid") return refusal("aborted", "ALREADY_FUNDED", "This deal is paid for: it is booked once the payment clears.");
    if (live && stillOpen(live, now)) return success({ reused: { url: live.checkoutUrl!, fundingId: live.id } });
    if (live) await tx.update(dealFundings).set({ state: "expired" }).where(eq(dealFundings.id, live.id));

    const [terms] = await tx.select().from(dealTerms).where(and(eq(dealTerms.dealId, deal.id), eq(dealTerms.version, deal.acceptedVersion)));
    const [sponsor] = await tx.select({ email: user.email }).from(user).where(eq(user.id, input.uid));
    const fundingId = fundingIdOf();
    await tx.insert(dealFundings).values({
      id: fundingId,
      dealId: deal.id,
      termsVersion: terms!.version,
      amount: terms!.price,
      currency: terms!.currency,
      platformFee: platformFeeFor(terms!.price, input.feePercent),
      createdAt: now,
    });
    return success({ opened: { fundingId, deal, terms: terms!, email: sponsor?.email ?? null } });
  });
  if (prepared.kind !== "SUCCESS") return prepared;
  if ("reused" in prepared) return success(prepared.reused);

  const { deal, terms, email, fundingId } = prepared.opened;
  const dealPath = `${input.publicOrigin}/app/deals/${deal.id}`;
  try {
    const checkout = await provider.createHeldCheckout({
      idempotencyKey: `deal_funding_${fundingId}`,
      fundingId,
      dealId: deal.id,
      transferGroup: transferGroupOf(deal.id),
      amount: terms.price,
      currency: terms.currency,
      productName: `Sponsorship: ${deal.title}`,
      sponsorEmail: email,
      successUrl: `${dealPath}?paid=1`,
      cancelUrl: dealPath,
    });
    await db
      .update(dealFundings)
      .set({ checkoutId: checkout.checkoutId, checkoutUrl: checkout.url, expiresAt: checkout.expiresAt })
      .where(and(eq(dealFundings.id, fundingId), eq(dealFundings.state, "open")));
    return success({ url: checkout.url, fundingId });
  } catch {
    // No checkout page reached anyone, so no money can arrive for it: it is closed, and the next click opens another.
    await db.update(dealFundings).set({ state: "failed" }).where(and(eq(dealFundings.id, fundingId), eq(dealFundings.state, "open")));
    return refusal("unavailable", "PROVIDER_UNAVAILABLE", "The checkout could not be opened. Please try again in a moment.");
  }
}

/** What a funding's checkout ended as, when it ended without money. */
export async function closeDealFunding(tx: Db, fundingId: string, state: Extract<DealFundingState, "expired" | "failed">): Promise<void> {
  await tx.update(dealFundings).set({ state }).where(and(eq(dealFundings.id, fundingId), eq(dealFundings.state, "open")));
}

export type FundingSettled = "BOOKED" | "ALREADY_RECORDED" | "UNKNOWN_FUNDING" | "DEAL_NOT_AGREED";

/**
 * The provider says a deal's checkout was paid: the held payment is written to the ledger once per
 * payment intent, the funding marked paid, and the deal booked along the table's `fund` edge, with
 * both sides told. Money for a deal that is no longer agreed (withdrawn while a checkout was being
 * paid elsewhere) is still written, so the ledger matches the provider, and the deal is left as it
 * is for staff to refund from the back office: logged loudly by the caller.
 */
export async function settleDealFunding(
  tx: Db,
  deps: NotificationDeps,
  input: { fundingId: string; details: PaymentDetails },
  now = new Date(),
): Promise<FundingSettled> {
  const [funding] = await tx.select().from(dealFundings).where(eq(dealFundings.id, input.fundingId)).for("update");
  if (!funding) return "UNKNOWN_FUNDING";
  const [deal] = await tx.select().from(deals).where(eq(deals.id, funding.dealId)).for("update");
  const written = await recordDealPayment(tx, {
    fundingId: funding.id,
    paymentIntentId: input.details.paymentIntentId,
    gross: input.details.gross,
    providerFee: input.details.providerFee,
    currency: input.details.currency,
  });
  if (written.outcome === "ALREADY_RECORDED") return "ALREADY_RECORDED";
  await tx
    .update(dealFundings)
    .set({ state: "paid", paymentIntentId: input.details.paymentIntentId, chargeId: input.details.chargeId, paidAt: now })
    .where(eq(dealFundings.id, funding.id));
  if (!deal || !platformMay("fund", deal.state) || deal.acceptedVersion !== funding.termsVersion) return "DEAL_NOT_AGREED";

  await tx.update(deals).set({ state: "funded", updatedAt: now }).where(eq(deals.id, deal.id));
  await tx.insert(dealActivity).values({
    dealId: deal.id,
    seq: sql`(select coalesce(max(${dealActivity.seq}), 0) + 1 from ${dealActivity} where ${dealActivity.dealId} = ${deal.id})`,
    action: "fund",
    actorUid: null,
    fromState: deal.state,
    toState: "funded",
    termsVersion: funding.termsVersion,
    network: null,
    at: now,
  });
  // The sponsor's invoice is issued with the booking, or not at all.
  await issueDealInvoice(tx, { deal, funding }, now);
  await tellBothSides(tx, deps, { deal, news: "funded", price: funding.amount, currency: funding.currency });
  return "BOOKED";
}
