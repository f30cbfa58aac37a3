import type { ConnectedAccountState } from "#server/providers/payments/port";
import { applyAccountState, lockAccountByProviderId } from "#server/domains/payments/payouts/account-state";
import type { Handler } from "#server/features/payment-webhooks/types";

/**
 * A connected account changed. What the event says may already be stale
 * (events arrive out of order), so the account is read fresh from the provider
 * before the transaction and that is what is written: the last handled report
 * always leaves the provider's current state, whatever the order.
 */
export const accountUpdated: Handler<"account.updated", ConnectedAccountState> = {
  prefetch: (_db, event, deps) => deps.provider.readAccount(event.accountId),
  async handle(tx, event, state, deps) {
    const row = await lockAccountByProviderId(tx, event.accountId);
    if (!row) {
      deps.logger?.warn({ accountId: event.accountId }, "account.updated for an account that is not ours; ignored");
      return;
    }
    await applyAccountState(tx, row, state, deps);
  },
};
