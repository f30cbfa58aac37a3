import type { PaymentProvider, ProviderProState, ProviderSubscription } from "#server/providers/payments/port";

/**
 * At most one live subscription per person, and none billing beside
 * Limitless (ADR 0023). The checks when opening a checkout
 * (checkout.ts) cannot see two checkouts paid in turn, so the provider's truth
 * is corrected whenever it is read for a sync (the webhook, the return from
 * checkout): Limitless ends every running subscription at its period's end
 * (Pro until then, no renewal); of two running subscriptions the first is
 * kept and the later one ended at once. The sandbox also refuses such a second
 * payment on its checkout page (server/providers/payments/sandbox/pro-pay.ts).
 */
export type SubscriptionEnding = { subscriptionId: string; when: "period_end" | "now"; reason: "limitless" | "second" };

const RUNNING: ReadonlySet<ProviderSubscription["status"]> = new Set(["active", "trialing", "past_due"]);

/** What must end for the state to hold one subscription at most, and none beside Limitless; pure, so it is tested on its own. */
export function subscriptionsToEnd(state: ProviderProState): SubscriptionEnding[] {
  const running = state.subscriptions.filter((sub) => sub.plan !== null && sub.plan !== "limitless" && RUNNING.has(sub.status));
  if (state.lifetimePurchase) {
    return running.filter((sub) => !sub.cancelAtPeriodEnd).map((sub) => ({ subscriptionId: sub.subscriptionId, when: "period_end", reason: "limitless" }));
  }
  const [, ...later] = [...running].sort((a, b) => a.created.getTime() - b.created.getTime() || a.subscriptionId.localeCompare(b.subscriptionId));
  return later.map((sub) => ({ subscriptionId: sub.subscriptionId, when: "now", reason: "second" }));
}

/**
 * The customer's state read fresh, with what subscriptionsToEnd calls for
 * done first (each with an idempotency key of its own, so a retry or a second
 * process ending the same one asks the provider once) and the state read
 * again after. Throws when the provider fails: the webhook is then delivered
 * again, and the Pro page shows "confirming".
 */
export async function readSettledProState(provider: Pick<PaymentProvider, "readProState" | "endSubscription">, customerId: string): Promise<ProviderProState> {
  const state = await provider.readProState(customerId);
  const endings = subscriptionsToEnd(state);
  if (endings.length === 0) return state;
  for (const ending of endings) {
    await provider.endSubscription({ idempotencyKey: `pro_end_${ending.reason}_${ending.subscriptionId}`, subscriptionId: ending.subscriptionId, when: ending.when });
  }
  return provider.readProState(customerId);
}
