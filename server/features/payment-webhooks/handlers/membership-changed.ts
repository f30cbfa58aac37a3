import { and, eq, or } from "drizzle-orm";
import { memberships } from "#server/platform/db/schema";
import type { Db } from "#server/platform/db/client";
import type { PaymentDetails, ProviderMembershipState } from "#server/providers/payments/port";
import type { PaymentEventOf } from "#server/providers/payments/events";
import { readUnrecordedPayments } from "#server/domains/memberships/paid-periods";
import { syncMembership } from "#server/domains/memberships/sync";
import { RetryLater, type Handler, type WebhookDeps } from "#server/features/payment-webhooks/types";

type Prefetched = {
  /** The provider's truth, or null when no subscription exists for the event (a checkout not paid, or expired). */
  state: ProviderMembershipState | null;
  /** The real fees of the paid periods not recorded yet. */
  paid: Map<string, PaymentDetails>;
  /** When the truth was read (taken before reading it): a row written later already holds a fresher one. */
  readAt: Date;
};

/**
 * Something changed about a membership (ADR 0084). The event says only which: the subscription's
 * truth is read before the transaction (a completed checkout names its subscription through the
 * provider) with the real fee of each paid period not recorded yet, and the membership converges on
 * it (server/domains/memberships/sync.ts), so order, duplicates and replays change nothing more.
 */
export const membershipChanged: Handler<"membership.changed", Prefetched> = {
  async prefetch(db, event, deps) {
    const readAt = new Date();
    const subscriptionId = event.subscriptionId ?? (event.checkoutId && event.cause !== "checkout.expired" ? await deps.provider.membershipSubscriptionOfCheckout(event.checkoutId) : null);
    if (!subscriptionId) return { state: null, paid: new Map(), readAt };
    const state = await deps.provider.readMembershipState(subscriptionId);
    return { state, paid: await readUnrecordedPayments(db, state, deps.provider), readAt };
  },
  async handle(tx, event, { state, paid, readAt }, deps) {
    if (!state) return settleCheckoutWithoutSubscription(tx, event, deps);
    const result = await syncMembership(tx, state, deps, readAt, paid);
    if (!result) return;
    // The row changed after this truth was read (another event, a member's action): read again, so nothing newer is undone and nothing is lost.
    if (result.stale) throw new RetryLater(`membership ${result.membershipId} changed after its truth was read`);
    // A paid period recorded by nobody yet and not read before the transaction: the next delivery reads it.
    if (result.missingPayments.length > 0) throw new RetryLater(`membership ${result.membershipId}: payment details of ${result.missingPayments.join(", ")} not read yet`);
    deps.logger?.info({ membershipId: result.membershipId, cause: event.cause, before: result.before, after: result.after, told: result.told, stale: result.stale }, "membership synced");
    return { mailQueued: result.told.length > 0 };
  },
};

/**
 * A checkout with no subscription: expired, the pending membership is expired (a membership that
 * got a subscription meanwhile is the subscription's to say); not paid yet, nothing changes.
 */
async function settleCheckoutWithoutSubscription(tx: Db, event: PaymentEventOf<"membership.changed">, deps: WebhookDeps): Promise<void> {
  if (event.cause !== "checkout.expired") {
    deps.logger?.info({ checkoutId: event.checkoutId, cause: event.cause }, "membership checkout without a subscription yet; nothing to do");
    return;
  }
  const which = [
    ...(event.membershipId ? [eq(memberships.id, event.membershipId)] : []),
    ...(event.checkoutId ? [eq(memberships.providerCheckoutId, event.checkoutId)] : []),
  ];
  const [row] = which.length > 0 ? await tx.select().from(memberships).where(or(...which)).for("update") : [];
  if (!row) {
    deps.logger?.warn({ checkoutId: event.checkoutId, membershipId: event.membershipId }, "membership checkout that is not one of ours expired; ignored");
    return;
  }
  if (row.status !== "pending" || row.providerSubscriptionId !== null) return;
  await tx
    .update(memberships)
    .set({ status: "expired", updatedAt: new Date() })
    .where(and(eq(memberships.id, row.id), eq(memberships.status, "pending")));
}
