import { eq } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { sponsorSessions } from "#server/platform/db/schema";
import type { PaymentEventOf } from "#server/providers/payments/events";
import { recordPayment, refreshSessionStatus } from "#server/domains/payments/ledger/ledger";
import type { PaymentDetails } from "#server/providers/payments/port";
import type { MailMessage } from "#server/platform/email/mailer";
import { composePaymentMails } from "#server/domains/payments/notices/payment-notices";
import { findSessionOfCheckout, lockSessionOfCheckout } from "#server/domains/payments/checkout/locked-sessions";
import { recordMoneyFact } from "#server/domains/payments/ledger/record-money-fact";
import { isDealCheckout, settleDealCheckout } from "./deal-checkouts";
import type { AfterCommit, WebhookDeps } from "./types";

type PaidEvent = PaymentEventOf<"checkout.completed" | "checkout.async_payment_succeeded">;

export type PaidPrefetch = { details: PaymentDetails; mails: MailMessage[] } | null;

/**
 * Before the transaction: the payment's real fee from the provider, and its
 * mails, rendered; null while the checkout is not paid (delayed methods).
 */
export async function prefetchPayment(db: Db, event: PaidEvent, deps: WebhookDeps): Promise<PaidPrefetch> {
  if (event.paymentStatus !== "paid" || !event.paymentIntentId) return null;
  const details = await deps.provider.paymentDetails(event.paymentIntentId);
  if (isDealCheckout(event)) return { details, mails: [] };
  const session = await findSessionOfCheckout(db, event);
  return { details, mails: session ? await composePaymentMails(db, session, { gross: details.gross, currency: details.currency, receiptTo: event.customerEmail }, deps) : [] };
}

/**
 * A checkout that was paid: its payment entry (once per payment intent, so
 * "completed" and "async succeeded" for one payment write one entry), the
 * derived status, and the money fact (what people are told), only when the entry is new. A deal's
 * checkout goes to the deal instead (deal-checkouts.ts).
 */
export async function settlePayment(
  tx: Db,
  event: PaidEvent,
  prefetched: PaidPrefetch,
  deps: WebhookDeps,
): Promise<void | AfterCommit> {
  if (isDealCheckout(event)) return settleDealCheckout(tx, event, prefetched?.details ?? null, deps);
  const session = await lockSessionOfCheckout(tx, event);
  if (!session) {
    // Not a sponsor checkout of ours (another product's checkout, another environment's).
    deps.logger?.warn({ checkoutId: event.checkoutId, eventId: event.eventId }, "payment event for an unknown checkout; ignored");
    return;
  }
  if (event.paymentIntentId && session.paymentIntentId !== event.paymentIntentId) {
    await tx.update(sponsorSessions).set({ paymentIntentId: event.paymentIntentId, updatedAt: new Date() }).where(eq(sponsorSessions.id, session.id));
  }
  if (!prefetched) return;
  const { details, mails } = prefetched;
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
  if (written.outcome === "ALREADY_RECORDED") return;
  await refreshSessionStatus(tx, session.id, session.status);
  // Receipts, "payment received" and payment.succeeded: the fan-out's row for payment.settled.
  await recordMoneyFact(tx, { type: "payment.settled", sessionId: session.id, paymentIntentId: details.paymentIntentId, gross: details.gross, currency: details.currency }, deps, { prepared: mails });
  return { mailQueued: mails.length > 0 };
}
