import { and, eq } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { refusal, success, type Refusal, type Success } from "#server/platform/errors";
import { isDatabaseUnavailable } from "#server/platform/db/unavailable";
import { paymentEvents } from "#server/platform/db/schema";
import type { PaymentEvent, PaymentEventType } from "#server/providers/payments/events";
import { HANDLERS } from "./dispatch";
import type { AfterCommit, Handler, WebhookDeps } from "./types";

async function runAfterCommit(db: Db, after: AfterCommit | undefined, deps: WebhookDeps): Promise<void> {
  // Any handled event may have queued mail: receipts, and the notifications' own mail (sendNotification
  // decides by the person's preference, so the handler cannot always say).
  {
    // Fire and forget: the worker retries on its own; the provider need not wait for SMTP.
    deps.mailer.deliverDue().catch((error: unknown) => deps.logger?.warn({ err: error }, "payment mail not sent yet; the worker retries"));
  }
}

export type IntakeResult =
  /** IGNORED: a type with no handler, recorded and marked handled, so it is not delivered again. */
  | Success<{ outcome: "HANDLED" | "ALREADY_HANDLED" | "IGNORED" }>
  /**
   * The handler failed (or the event came before what it needs): left unhandled, and the
   * refusal's 500 is what makes the provider deliver it again.
   */
  | Refusal<"internal", "NOT_HANDLED_YET", { error: unknown }>
  /** The database could not be reached: nothing was decided, and the 503 makes the provider deliver it again. */
  | Refusal<"unavailable", "DATABASE_UNAVAILABLE">;

/**
 * Record-once webhook intake (DESIGN §5a, as Polar's external_event service):
 *
 * 1. the event is stored by (provider, event id) with its payload — `on
 *    conflict do nothing`, so every delivery after the first is a no-op here;
 * 2. if it is already handled, nothing else happens;
 * 3. the handler's `prefetch` asks the provider what it needs, outside any
 *    transaction (no network call holds a lock);
 * 4. one transaction locks the event row (`for update`: a concurrent delivery
 *    of the same event waits here, then sees it handled), runs the handler,
 *    whose writes lock the session row in turn, and sets handled_at.
 *
 * A handler that throws rolls all of its writes back and leaves the event
 * stored but unhandled; the route answers 500 and the provider tries again.
 */
export async function receivePaymentEvent(db: Db, event: PaymentEvent, deps: WebhookDeps): Promise<IntakeResult> {
  try {
    return await recordAndHandle(db, event, deps);
  } catch (error) {
    if (!isDatabaseUnavailable(error)) throw error;
    deps.onEvent?.(event, "failed");
    deps.logger?.warn({ err: error, provider: event.provider, eventId: event.eventId, type: event.type }, "payment event not handled: the database cannot be reached; the provider will deliver it again");
    return refusal("unavailable", "DATABASE_UNAVAILABLE", "The database cannot be reached right now; deliver it again later.");
  }
}

async function recordAndHandle(db: Db, event: PaymentEvent, deps: WebhookDeps): Promise<IntakeResult> {
  const key = and(eq(paymentEvents.provider, event.provider), eq(paymentEvents.eventId, event.eventId));
  deps.onEvent?.(event, "received");
  await db
    .insert(paymentEvents)
    .values({ provider: event.provider, eventId: event.eventId, type: event.type, payload: event })
    .onConflictDoNothing({ target: [paymentEvents.provider, paymentEvents.eventId] });
  const [stored] = await db.select({ handledAt: paymentEvents.handledAt }).from(paymentEvents).where(key);
  if (stored?.handledAt) {
    deps.onEvent?.(event, "duplicate");
    return success({ outcome: "ALREADY_HANDLED" });
  }

  const handler = (HANDLERS as Partial<Record<PaymentEventType, Handler<PaymentEventType, unknown>>>)[event.type];
  let outcome;
  try {
    const prefetched = handler?.prefetch ? await handler.prefetch(db, event as never, deps) : undefined;
    outcome = await db.transaction(async (tx) => {
      const [locked] = await tx.select({ handledAt: paymentEvents.handledAt }).from(paymentEvents).where(key).for("update");
      if (locked?.handledAt) return { result: success({ outcome: "ALREADY_HANDLED" as const }) };
      const after = handler ? await handler.handle(tx, event as never, prefetched, deps) : undefined;
      await tx.update(paymentEvents).set({ handledAt: new Date() }).where(key);
      return { result: success({ outcome: handler ? ("HANDLED" as const) : ("IGNORED" as const) }), after: after ?? undefined };
    });
  } catch (error) {
    // An outage is the caller's to report (above): it is nobody's bug, and it answers 503.
    if (isDatabaseUnavailable(error)) throw error;
    deps.onEvent?.(event, "failed");
    deps.logger?.warn({ err: error, provider: event.provider, eventId: event.eventId, type: event.type }, "payment event not handled; the provider will deliver it again");
    return refusal("internal", "NOT_HANDLED_YET", "Not handled yet; deliver it again.", { error });
  }
  const outcomeName = outcome.result.outcome;
  deps.onEvent?.(event, outcomeName === "HANDLED" ? "processed" : outcomeName === "IGNORED" ? "ignored" : "duplicate");
  // Committed: what follows cannot undo it, so its failure is logged, not reported as the event's.
  await runAfterCommit(db, outcome.after, deps).catch((error: unknown) => deps.logger?.error({ err: error, eventId: event.eventId }, "after-commit step of a payment event failed"));
  return outcome.result;
}
