import type { Db } from "#server/platform/db/client";
import type { MailMessage } from "#server/platform/email/mailer";
import { queueWebhookEvent, type WebhookEventInput } from "#server/platform/outgoing-webhooks/queue";
import { sendNotification, type NotificationInput } from "#server/domains/notifications/send";
import type { MoneyEventOf, MoneyEventType } from "#server/domains/payments/ledger/money-events";
import { disputeClosed, disputeOpened } from "#server/domains/payments/notices/dispute-notices";
import type { FanOutDeps } from "#server/domains/payments/notices/notice-deps";
import { allowedReceipts, paymentReceived, payoutsEnabled, refundDone } from "#server/domains/payments/notices/payment-notices";
import { paymentWebhook } from "#server/domains/payments/notices/payment-webhook-events";
import { proEnded, proRenewalFailed, proStarted, proWebhook } from "#server/domains/pro/pro-notices";
import { allowedMemberMails, memberNotice, membershipWebhook } from "#server/domains/memberships/membership-notices";

/** One row of the table: who hears of one type of money fact, and how. A null column: nobody, that way. */
export type FanOutRow<T extends MoneyEventType> = {
  /** Mail besides the notification's own, from what the writer rendered before its transaction. */
  mails: ((tx: Db, event: MoneyEventOf<T>, deps: FanOutDeps, prepared: readonly MailMessage[]) => Promise<MailMessage[]>) | null;
  /** The in-app notification; sendNotification mails it too when its person wants that kind. Null inside: nobody to tell. */
  notification: ((tx: Db, event: MoneyEventOf<T>, deps: FanOutDeps) => Promise<NotificationInput | null>) | null;
  /** The outgoing webhook event for the person's endpoints that want it. Null inside: nobody to send it to. */
  webhook: ((tx: Db, event: MoneyEventOf<T>) => Promise<WebhookEventInput | null>) | null;
};

/**
 * THE table of who hears of a money fact (ADR 0064). A writer records the fact through the
 * ledger (recordMoneyFact) and never sends a notification, a mail or a webhook of its own; a new
 * type in money-events.ts does not compile until it has its row here (fan-out.test.ts checks at
 * run time too).
 */
export const MONEY_FAN_OUT: { [T in MoneyEventType]: FanOutRow<T> } = {
  "payment.settled": { mails: allowedReceipts, notification: paymentReceived, webhook: paymentWebhook("payment.succeeded") },
  "payment.refunded": { mails: null, notification: refundDone, webhook: paymentWebhook("payment.refunded") },
  "dispute.opened": { mails: null, notification: disputeOpened, webhook: paymentWebhook("payment.disputed") },
  "dispute.changed": { mails: null, notification: null, webhook: paymentWebhook("payment.disputed") },
  "dispute.closed": { mails: null, notification: disputeClosed, webhook: paymentWebhook("payment.disputed") },
  "pro.started": { mails: null, notification: proStarted, webhook: proWebhook("pro.started") },
  "pro.renewal_failed": { mails: null, notification: proRenewalFailed, webhook: null },
  "pro.ended": { mails: null, notification: proEnded, webhook: proWebhook("pro.ended") },
  "payouts.enabled": { mails: null, notification: payoutsEnabled, webhook: null },
  // A membership's paid period is also a payment.settled, whose row tells the creator nothing (paymentReceived): these say it with the tier.
  "membership.created": { mails: allowedMemberMails, notification: memberNotice, webhook: membershipWebhook("membership.created") },
  "membership.renewed": { mails: allowedMemberMails, notification: memberNotice, webhook: membershipWebhook("membership.renewed") },
  "membership.payment_failed": { mails: allowedMemberMails, notification: null, webhook: membershipWebhook("membership.payment_failed") },
  "membership.cancelled": { mails: null, notification: memberNotice, webhook: membershipWebhook("membership.cancelled") },
  "membership.ended": { mails: allowedMemberMails, notification: memberNotice, webhook: membershipWebhook("membership.ended") },
};

/**
 * Tells everyone the table names of one fact, with the writer's transaction: mails, then the
 * notification, then the webhook, so they are committed with the change or not at all.
 */
export async function fanOut<T extends MoneyEventType>(
  tx: Db,
  event: MoneyEventOf<T>,
  deps: FanOutDeps,
  { now, prepared = [] }: { now: Date; prepared?: readonly MailMessage[] },
): Promise<void> {
  const row = MONEY_FAN_OUT[event.type] as FanOutRow<T>;
  for (const mail of row.mails ? await row.mails(tx, event, deps, prepared) : []) await deps.mailer.sendWithin(tx, mail);
  const notification = row.notification ? await row.notification(tx, event, deps) : null;
  if (notification) await sendNotification(tx, notification, deps);
  const webhook = row.webhook ? await row.webhook(tx, event) : null;
  if (webhook) await queueWebhookEvent(tx, { ...webhook, now: webhook.now ?? now });
}
