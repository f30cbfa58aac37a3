import { eq } from "drizzle-orm";
import type { Db } from "#server/db/client";
import { sponsorSessions } from "#server/db/schema";
import type { PaymentEventOf } from "#server/payments/events";
import { recordPayment, refreshSessionStatus } from "#server/payments/ledger";
import type { PaymentDetails } from "#server/payments/provider";
import { announcePayment } from "./announce";
import { lockSessionOfCheckout } from "./sessions";
import type { WebhookDeps } from "./types";

type PaidEvent = PaymentEventOf<"checkout.completed" | "checkout.async_payment_succeeded">;

/** The real fee of a paid checkout, asked before the transaction; null while it is not paid (async methods). */
export async function prefetchPaymentDetails(event: PaidEvent, deps: WebhookDeps): Promise<PaymentDetails | null> {
  if (event.paymentStatus !== "paid" || !event.paymentIntentId) return null;
  return deps.provider.paymentDetails(event.paymentIntentId);
}

/**
 * A checkout that was paid: its payment entry (once per payment intent, so
 * "completed" and "async succeeded" for one payment write one entry), the
 * derived status, and the announcements, only when the entry is new.
 */
export async function settlePayment(
  tx: Db,
  event: PaidEvent,
  details: PaymentDetails | null,
  deps: WebhookDeps,
): Promise<void> {
  const session = await lockSessionOfCheckout(tx, event);
  if (!session) {
    // Not a sponsor checkout of ours (another product's checkout, another environment's).
    deps.logger?.warn({ checkoutId: event.checkoutId, eventId: event.eventId }, "payment event for an unknown checkout; ignored");
    return;
  }
  if (event.paymentIntentId && session.paymentIntentId !== event.paymentIntentId) {
    await tx.update(sponsorSessions).set({ paymentIntentId: event.paymentIntentId, updatedAt: new Date() }).where(eq(sponsorSessions.id, session.id));
  }
  if (!details) return;
  if (details.gross !== session.amount) {
    deps.logger?.warn({ sessionId: session.id, asked: session.amount, paid: details.gross }, "paid amount differs from the session's; the ledger keeps what was paid");
  }
  const written = await recordPayment(tx, {
    sessionId: session.id,
    paymentIntentId: details.paymentIntentId,
    gross: details.gross,
    providerFee: details.providerFee,
    platformFee: session.platformFee,
    currency: details.currency,
  });
  if (written.kind === "ALREADY_RECORDED") return;
  await refreshSessionStatus(tx, session.id, session.status);
  await announcePayment(tx, session, details.gross, details.currency, deps);
}
