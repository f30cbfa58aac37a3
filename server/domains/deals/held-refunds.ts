import { and, eq, inArray, sql } from "drizzle-orm";
import { recordDealRefund } from "#server/domains/payments/ledger/deal-ledger";
import type { Db } from "#server/platform/db/client";
import { dealFundings, ledgerEntries } from "#server/platform/db/schema";

/**
 * Money held for a deal going back to the sponsor (ADR 0080): one `deal_refund` row per refund the
 * provider made of the held charge, whichever event reports it first. What the provider refunded
 * is written as it is, except what would make the deal's rows say more went back or on to the
 * creator than was paid: that is refused here, under the funding's row lock, and left for
 * reconciliation to show (the provider's refund then has no ledger row).
 */

export type HeldFunding = Pick<typeof dealFundings.$inferSelect, "id" | "dealId" | "paymentIntentId" | "currency">;

/** The funding a payment intent paid, locked for the refund's writes; null when it is no deal's held charge. */
export async function lockFundingOfPayment(tx: Db, paymentIntentId: string): Promise<HeldFunding | null> {
  const [funding] = await tx
    .select({ id: dealFundings.id, dealId: dealFundings.dealId, paymentIntentId: dealFundings.paymentIntentId, currency: dealFundings.currency })
    .from(dealFundings)
    .where(eq(dealFundings.paymentIntentId, paymentIntentId))
    .for("update");
  return funding ?? null;
}

/** The funding a payment intent paid, unlocked: whether an event is about a deal's held charge at all. */
export async function fundingOfPayment(db: Db, paymentIntentId: string): Promise<Pick<HeldFunding, "id" | "dealId"> | null> {
  const [funding] = await db.select({ id: dealFundings.id, dealId: dealFundings.dealId }).from(dealFundings).where(eq(dealFundings.paymentIntentId, paymentIntentId));
  return funding ?? null;
}

export type HeldRefundOutcome =
  | "RECORDED"
  | "ALREADY_RECORDED"
  /** Refunded and released together would pass what was paid: nothing written. */
  | "MORE_THAN_PAID"
  /** Not the held payment's currency: nothing written. */
  | "OTHER_CURRENCY";

/** What the funding's rows say so far: paid in, and gone out (refunded to the sponsor or released to the creator). */
export async function heldSoFar(tx: Db, fundingId: string): Promise<{ paid: number; out: number }> {
  const [row] = await tx
    .select({
      paid: sql<number>`coalesce(sum(${ledgerEntries.gross}) filter (where ${ledgerEntries.kind} = 'deal_payment'), 0)::int`,
      // A refund's gross and a release's net are each the money that left the held amount.
      out: sql<number>`coalesce(sum(-${ledgerEntries.gross}) filter (where ${ledgerEntries.kind} = 'deal_refund'), 0)::int + coalesce(sum(${ledgerEntries.net}) filter (where ${ledgerEntries.kind} = 'deal_release'), 0)::int`,
    })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.fundingId, fundingId), inArray(ledgerEntries.kind, ["deal_payment", "deal_refund", "deal_release"])));
  return { paid: row?.paid ?? 0, out: row?.out ?? 0 };
}

/**
 * One succeeded refund of the held charge, once per refund id. `funding` must have been locked by
 * the caller's transaction (lockFundingOfPayment), so two refunds reported at once are checked one
 * after the other against what is left.
 */
export async function recordHeldRefund(tx: Db, funding: HeldFunding, refund: { refundId: string; amount: number; currency: string }): Promise<HeldRefundOutcome> {
  const [known] = await tx
    .select({ id: ledgerEntries.id })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.kind, "deal_refund"), eq(ledgerEntries.providerReference, refund.refundId)));
  if (known) return "ALREADY_RECORDED";
  if (refund.currency !== funding.currency) return "OTHER_CURRENCY";
  const { paid, out } = await heldSoFar(tx, funding.id);
  if (out + refund.amount > paid) return "MORE_THAN_PAID";
  const written = await recordDealRefund(tx, { fundingId: funding.id, refundId: refund.refundId, amount: refund.amount, currency: refund.currency });
  return written.outcome;
}
