import type { ProviderProState } from "#server/providers/payments/port";
import type { Handler } from "#server/features/payment-webhooks/types";
import { uidOfBillingCustomer } from "#server/domains/pro/customers";
import { readSettledProState } from "#server/domains/pro/one-subscription";
import { syncProMembership } from "#server/domains/pro/sync";

/**
 * Something changed about a customer's Pro purchases. The event says only
 * who: the provider's current truth is read before the transaction (a second
 * subscription or one billing beside Limitless ended first:
 * server/domains/pro/one-subscription.ts) and the
 * membership converges on it (server/domains/pro/sync.ts), so the order,
 * duplicates and replays of these events change nothing more.
 */
export const proCustomerChanged: Handler<"pro.customer_changed", ProviderProState> = {
  // Only a customer of ours is corrected: another's subscriptions are not ours to end.
  prefetch: async (db, event, deps) =>
    (await uidOfBillingCustomer(db, event.customerId)) ? readSettledProState(deps.provider, event.customerId) : deps.provider.readProState(event.customerId),
  async handle(tx, event, state, deps) {
    const uid = await uidOfBillingCustomer(tx, event.customerId);
    if (!uid) {
      deps.logger?.warn({ customerId: event.customerId, cause: event.cause }, "pro.customer_changed for a customer that is not ours; ignored");
      return;
    }
    const result = await syncProMembership(tx, uid, state, new Date(), deps);
    deps.logger?.info({ uid, cause: event.cause, before: result.before, after: result.after, notifications: result.notifications }, "Pro membership synced");
  },
};
