import { eq } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { sponsorSessions } from "#server/platform/db/schema";
import type { WebhookEventInput } from "#server/platform/outgoing-webhooks/queue";
import type { WebhookEventType } from "#isomorphic/webhook-events";
import { toPublicPayment } from "#server/domains/payments/records/public-payment";
import { readSponsorPaymentInfo } from "#server/domains/payments/records/sponsor-sessions";

type PaymentWebhookType = Extract<WebhookEventType, `payment.${string}`>;

/**
 * A payment event for the payment's receiver, a column of the money facts' fan-out: queued with
 * the transaction that recorded the change (so it is sent exactly when the change happened).
 * `data` is the payment as `GET /api/v1/payments/{id}` answers it at that moment. None when the
 * receiver deleted their account. Events of one payment reach an endpoint in order (`payment:<id>`).
 */
export function paymentWebhook(type: PaymentWebhookType) {
  return async (tx: Db, event: { sessionId: string }): Promise<WebhookEventInput | null> => {
    const [session] = await tx.select({ uid: sponsorSessions.posterUid }).from(sponsorSessions).where(eq(sponsorSessions.id, event.sessionId));
    if (!session?.uid) return null;
    const found = await readSponsorPaymentInfo(tx, session.uid, event.sessionId);
    if (found.kind === "ERROR") return null;
    return { uid: session.uid, type, orderingKey: `payment:${event.sessionId}`, data: toPublicPayment(found.info) };
  };
}
