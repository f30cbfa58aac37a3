import { eq } from "drizzle-orm";
import type { Db } from "#server/db/client";
import { sponsorSessions, type DisputeStatus } from "#server/db/schema";
import { queueWebhookEvent } from "#server/outgoing-webhooks/queue";
import { sessionTotals } from "./ledger";

/** A dispute as a `payment.disputed` event carries it. */
export type PaymentDisputeData = { id: string; status: DisputeStatus; reason: string | null; amount: number; currency: string; evidenceDueBy: string | null };

/**
 * A received payment as webhook events carry it (JSON: dates as ISO strings, money in minor
 * units): what the session asked for, and what the ledger says it comes to now (`gross` less
 * refunds and disputes, the platform's `fee`, the creator's `net`).
 */
export type PaymentEventData = {
  id: string;
  kind: "tip" | "sponsorship";
  status: string;
  amount: number;
  currency: string;
  gross: number;
  fee: number;
  net: number;
  supporterName: string | null;
  message: string;
  bioPageId: string | null;
  opportunityId: string | null;
  createdAt: string;
  dispute?: PaymentDisputeData;
};

export async function paymentEventData(db: Db, sessionId: string): Promise<{ uid: string | null; data: PaymentEventData } | null> {
  const [session] = await db.select().from(sponsorSessions).where(eq(sponsorSessions.id, sessionId));
  if (!session) return null;
  const totals = (await sessionTotals(db, sessionId)).find((t) => t.currency === session.currency);
  return {
    uid: session.posterUid,
    data: {
      id: session.id,
      kind: session.kind,
      status: session.status,
      amount: session.amount,
      currency: session.currency,
      gross: totals?.gross ?? 0,
      fee: totals?.platformFee ?? 0,
      net: totals?.net ?? 0,
      supporterName: session.supporterName,
      message: session.message,
      bioPageId: session.bioPageId,
      opportunityId: session.postId,
      createdAt: session.created.toISOString(),
    },
  };
}

/**
 * Queues a payment event for the payment's receiver, with the transaction that recorded the
 * change (so it is sent exactly when the change happened). Nothing when the receiver deleted
 * their account. Events of one payment reach an endpoint in order (`payment:<id>`).
 */
export async function queuePaymentEvent(
  tx: Db,
  sessionId: string,
  type: "payment.succeeded" | "payment.refunded" | "payment.disputed",
  extra: { dispute?: PaymentDisputeData } = {},
): Promise<string | null> {
  const payment = await paymentEventData(tx, sessionId);
  if (!payment?.uid) return null;
  return queueWebhookEvent(tx, { uid: payment.uid, type, orderingKey: `payment:${sessionId}`, data: { ...payment.data, ...extra } });
}
