import type { Db } from "#server/platform/db/client";
import { appendEntry, type LedgerWrite } from "./ledger";

/**
 * The writers of a deal's money (ADR 0080), one per kind, on the same ledger as tips. The
 * platform holds a deal's payment until the deal ends, so on these rows `platform_fee` is what
 * the platform holds or keeps and `net` what reached the creator:
 *
 * | kind         | gross   | platform_fee | net     |
 * |--------------|---------|--------------|---------|
 * | deal_payment | +paid   | +paid        | 0       |
 * | deal_release | 0       | −share       | +share  |
 * | deal_refund  | −amount | −amount      | 0       |
 *
 * Summed over a released deal they read as a tip's payment row: gross, the platform's fee, the
 * creator's net. The sums can never show more released and refunded than was paid: the callers
 * check under the funding's row lock, and deals.money.property.test.ts drives random lives.
 */

/** The sponsor's payment for a deal arrived and is held, once per payment intent. */
export function recordDealPayment(tx: Db, input: { fundingId: string; paymentIntentId: string; gross: number; providerFee: number; currency: string }): Promise<LedgerWrite> {
  return appendEntry(tx, "deal_payment", {
    fundingId: input.fundingId,
    gross: input.gross,
    providerFee: input.providerFee,
    platformFee: input.gross,
    currency: input.currency,
    providerReference: input.paymentIntentId,
  });
}

/** The creator's share left the platform for their connected account, once per transfer. */
export function recordDealRelease(tx: Db, input: { fundingId: string; transferId: string; amount: number; currency: string }): Promise<LedgerWrite> {
  return appendEntry(tx, "deal_release", {
    fundingId: input.fundingId,
    gross: 0,
    providerFee: 0,
    platformFee: -input.amount,
    currency: input.currency,
    providerReference: input.transferId,
  });
}

/** Held money went back to the sponsor, once per refund (a split refunds part). The provider keeps its fee. */
export function recordDealRefund(tx: Db, input: { fundingId: string; refundId: string; amount: number; currency: string }): Promise<LedgerWrite> {
  return appendEntry(tx, "deal_refund", {
    fundingId: input.fundingId,
    gross: -input.amount,
    providerFee: 0,
    platformFee: -input.amount,
    currency: input.currency,
    providerReference: input.refundId,
  });
}
