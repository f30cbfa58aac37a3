import { sql } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { refundRequests } from "#server/platform/db/schema";
import { recordRefund, refreshSessionStatus, sessionEntries } from "#server/domains/payments/ledger/ledger";
import type { FanOutDeps } from "#server/domains/payments/notices/notice-deps";
import { recordMoneyFact } from "#server/domains/payments/ledger/record-money-fact";
import type { LockedSession } from "#server/domains/payments/checkout/locked-sessions";
import { RetryLater } from "./types";

/**
 * A refund the provider says went through, from whichever event says it first
 * (charge.refunded, refund.updated): the refund entry (once per payment), the
 * session refunded, the request succeeded (created if the refund was made in
 * the provider's dashboard), and the payment.refunded fact ("refund done", the webhook) — all
 * only if the entry is new.
 */
export async function applySucceededRefund(
  tx: Db,
  session: LockedSession,
  refund: { paymentIntentId: string; amount: number; currency: string; refundId: string | null },
  deps: FanOutDeps,
): Promise<void> {
  const payment = (await sessionEntries(tx, session.id)).find((e) => e.kind === "payment");
  // The refund overtook the payment's own event: let the provider bring it back once the payment is in.
  if (!payment) throw new RetryLater(`refund of ${refund.paymentIntentId} before its payment was recorded`);
  const written = await recordRefund(tx, { sessionId: session.id, paymentIntentId: refund.paymentIntentId, amount: refund.amount, currency: refund.currency, payment });
  await tx
    .insert(refundRequests)
    .values({ sessionId: session.id, status: "succeeded", providerRefundId: refund.refundId })
    .onConflictDoUpdate({
      target: refundRequests.sessionId,
      // charge.refunded does not name the refund; whichever event does fills it in.
      set: { status: "succeeded", providerRefundId: sql`coalesce(excluded.provider_refund_id, ${refundRequests.providerRefundId})`, updatedAt: new Date() },
    });
  if (written.outcome === "ALREADY_RECORDED") return;
  await refreshSessionStatus(tx, session.id, session.status);
  await recordMoneyFact(tx, { type: "payment.refunded", sessionId: session.id, paymentIntentId: refund.paymentIntentId, amount: Math.min(refund.amount, payment.gross), currency: refund.currency }, deps);
}
