import type { Db } from "#server/platform/db/client";
import type { PaymentEventOf, PaymentEventType } from "#server/providers/payments/events";
import type { WebhookDeps } from "#server/domains/payments/notices/notice-deps";

/** What handlers may use besides the transaction (defined with the payments domain, whose receipts use it too). */
export type { WebhookDeps };

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
