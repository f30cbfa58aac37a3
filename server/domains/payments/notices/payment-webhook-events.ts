import { eq } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { sponsorSessions } from "#server/platform/db/schema";
import { queueWebhookEvent } from "#server/platform/outgoing-webhooks/queue";
import { toPublicPayment } from "#server/domains/payments/records/public-payment";
import { readSponsorPaymentInfo } from "#server/domains/payments/records/sponsor-sessions";

/**
 * Queues a payment event for the payment's receiver, with the transaction that recorded the
 * change (so it is sent exactly when the change happened). `data` is the payment as
 * `GET /api/v1/payments/{id}` answers it at that moment. Nothing when the receiver deleted their
 * account. Events of one payment reach an endpoint in order (`payment:<id>`).
 */
export async function queuePaymentEvent(tx: Db, sessionId: string, type: "payment.succeeded" | "payment.refunded" | "payment.disputed"): Promise<string | null> {
  const [session] = await tx.select({ uid: sponsorSessions.posterUid }).from(sponsorSessions).where(eq(sponsorSessions.id, sessionId));
  if (!session?.uid) return null;
  const found = await readSponsorPaymentInfo(tx, session.uid, sessionId);
  if (found.kind === "ERROR") return null;
  return queueWebhookEvent(tx, { uid: session.uid, type, orderingKey: `payment:${sessionId}`, data: toPublicPayment(found.info) });
}
