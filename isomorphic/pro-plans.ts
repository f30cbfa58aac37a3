import { formatMoney } from "#isomorphic/format";

/**
 * The Pro plans (SPEC §2.5, §9), the one place their prices are written: the
 * plans page, My Account and the guides read them from here. Each exists at
 * the provider as one price found by its
 * lookup key, so a restart, a second process or a new deploy finds the price
 * it made before instead of making another (server/providers/payments/port.ts
 * `ensureProPrices`). Amounts are integer cents.
 */
export const PRO_PLAN_KEYS = ["launchpad", "star_power", "limitless"] as const;
export type ProPlanKey = (typeof PRO_PLAN_KEYS)[number];

export type ProPlan = {
  key: ProPlanKey;
  name: string;
  /** The price's lookup key at the provider: stable across restarts and environments. */
  lookupKey: string;
  amount: number;
  currency: "usd";
  /** How often it renews; null for the one-time Limitless purchase. */
  interval: "month" | "year" | null;
};

export const PRO_PLANS: Readonly<Record<ProPlanKey, ProPlan>> = {
  launchpad: { key: "launchpad", name: "Launchpad", lookupKey: "sponsorgrid_pro_launchpad_monthly", amount: 200, currency: "usd", interval: "month" },
  star_power: { key: "star_power", name: "Star Power", lookupKey: "sponsorgrid_pro_star_power_yearly", amount: 1500, currency: "usd", interval: "year" },
  limitless: { key: "limitless", name: "Limitless", lookupKey: "sponsorgrid_pro_limitless_once", amount: 5000, currency: "usd", interval: null },
};

export function isProPlanKey(value: unknown): value is ProPlanKey {
  return typeof value === "string" && (PRO_PLAN_KEYS as readonly string[]).includes(value);
}

/** The plan a provider price belongs to, from its lookup key; null for a price that is not ours. */
export function planOfLookupKey(lookupKey: string | null | undefined): ProPlanKey | null {
  return PRO_PLAN_KEYS.find((key) => PRO_PLANS[key].lookupKey === lookupKey) ?? null;
}

const PER_INTERVAL = { month: "per month", year: "per year" } as const;

/** A plan's price as every page says it: "$2 per month", "$15 per year", "$50 one-time". */
export function proPriceText(key: ProPlanKey): string {
  const plan = PRO_PLANS[key];
  return `${formatMoney(plan.amount, plan.currency)} ${plan.interval ? PER_INTERVAL[plan.interval] : "one-time"}`;
}

/**
 * What a year of Star Power saves against twelve months of Launchpad, in whole percent, rounded
 * down so the page never promises more than the prices give ($15 against $24: 37%).
 */
export function yearlySavingPercent(): number {
  const twelveMonths = PRO_PLANS.launchpad.amount * 12;
  return Math.floor(((twelveMonths - PRO_PLANS.star_power.amount) * 100) / twelveMonths);
}
