import type { ProBilling, ProPriceSpec } from "#server/providers/payments/port";
import { PRO_PLAN_KEYS, PRO_PLANS, type ProPlanKey } from "#isomorphic/pro-plans";

/** Our plans as the provider must sell them; the lookup key is what finds the same price again. */
export const PRO_PRICE_SPECS: readonly ProPriceSpec[] = PRO_PLAN_KEYS.map((key) => {
  const plan = PRO_PLANS[key];
  return { plan: key, lookupKey: plan.lookupKey, productName: `Sponsorgrid Pro: ${plan.name}`, amount: plan.amount, currency: plan.currency, interval: plan.interval };
});

/**
 * The price id of each plan at the provider. The provider finds prices by lookup key and
 * creates only missing ones, so a restart, a second process or two first checkouts at once
 * never make a second price; the composition root's provider asks only once per process
 * (`ensuringProPricesOnce`).
 */
export function proPriceIds(provider: ProBilling): Promise<Record<ProPlanKey, string>> {
  return provider.ensureProPrices(PRO_PRICE_SPECS);
}

/**
 * The same provider, asking for the Pro prices once: the first checkout ensures them, the
 * rest reuse its ids. A failed attempt is forgotten, so the next call tries again. The answer
 * lives in the returned object, which the composition root owns (one per process).
 */
export function ensuringProPricesOnce<P extends ProBilling>(provider: P): P {
  let pending: Promise<Record<ProPlanKey, string>> | null = null;
  const ensureOnce = (plans: readonly ProPriceSpec[]) => {
    if (!pending) {
      const attempt = provider.ensureProPrices(plans);
      pending = attempt;
      attempt.catch(() => {
        if (pending === attempt) pending = null;
      });
    }
    return pending;
  };
  // Every other member is the provider's own, read through (the sandbox's and Stripe's objects alike).
  return new Proxy(provider, { get: (target, key, receiver) => (key === "ensureProPrices" ? ensureOnce : Reflect.get(target, key, receiver)) });
}
