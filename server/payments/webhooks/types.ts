import type { Logger } from "pino";
import type { Db } from "#server/db/client";
import type { Mailer } from "#server/email/mailer";
import type { EmailSite } from "#server/email/messages";
import type { PaymentEventOf, PaymentEventType } from "#server/payments/events";
import type { PaymentProvider } from "#server/payments/provider";

/** What handlers may use besides the transaction. */
export type WebhookDeps = {
  provider: PaymentProvider;
  /** Receipts and notification mail go into the outbox with the handler's transaction. */
  mailer: Mailer;
  site: EmailSite & { publicOrigin: string; bioOrigin: string };
  /** Signs the unsubscribe links of notification mails: with `mailer` and `site`, these are sendNotification's deps. */
  unsubscribeKey: string;
  logger?: Logger;
};

/**
 * One event's handler. `prefetch` asks the provider for what the handler
 * needs (the real fee, an account's current state) BEFORE the transaction
 * opens, so no network call ever holds a row lock; `handle` then writes
 * everything the event changes with `tx`, which also marks the event handled.
 */
export type Handler<T extends PaymentEventType, P = undefined> = {
  prefetch?(db: Db, event: PaymentEventOf<T>, deps: WebhookDeps): Promise<P>;
  handle(tx: Db, event: PaymentEventOf<T>, prefetched: P, deps: WebhookDeps): Promise<void | AfterCommit>;
};

/** What the intake does once the handler's transaction has committed (never before: others could read the old state). */
export type AfterCommit = {
  /** Mail was queued: the SMTP worker is woken now rather than on its next round. */
  mailQueued?: boolean;
};

/**
 * Thrown when the event needs something not recorded yet (a refund reported
 * before its payment): the transaction rolls back, the event stays unhandled,
 * the route answers 500 and the provider delivers it again later, by which
 * time the payment is in. Events may arrive in any order; this is how order
 * stops mattering.
 */
export class RetryLater extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RetryLater";
  }
}
