import type { ProBilling, ProPriceSpec } from "#server/payments/provider";
import { PRO_PLAN_KEYS, PRO_PLANS, type ProPlanKey } from "./plans";

/** Our plans as the provider must sell them; the lookup key is what finds the same price again. */
export const PRO_PRICE_SPECS: readonly ProPriceSpec[] = PRO_PLAN_KEYS.map((key) => {
  const plan = PRO_PLANS[key];
  return { plan: key, lookupKey: plan.lookupKey, productName: `Sponsorgrid Pro: ${plan.name}`, amount: plan.amount, currency: plan.currency, interval: plan.interval };
});

// One answer per provider object, i.e. per process: the first checkout ensures the prices, the rest reuse its ids.
const cache = new WeakMap<ProBilling, Promise<Record<ProPlanKey, string>>>();

/**
 * The price id of each plan at the provider, ensured once per process. The
 * provider finds prices by lookup key and creates only missing ones, so a
 * restart, a second process or two first checkouts at once never make a
 * second price. A failed attempt is forgotten, so the next call tries again.
 */
export function proPriceIds(provider: ProBilling): Promise<Record<ProPlanKey, string>> {
  let pending = cache.get(provider);
  if (!pending) {
    pending = provider.ensureProPrices(PRO_PRICE_SPECS);
    cache.set(provider, pending);
    pending.catch(() => cache.delete(provider));
  }
  return pending;
}
