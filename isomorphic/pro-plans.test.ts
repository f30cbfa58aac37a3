import { describe, expect, it } from "vitest";
import { PRO_PLAN_KEYS, PRO_PLANS, proPriceText, yearlySavingPercent } from "#isomorphic/pro-plans";

describe("Pro prices, written once", () => {
  it("say each plan's price as the plans page words it, from the amounts the provider is asked for", () => {
    expect(PRO_PLAN_KEYS.map(proPriceText)).toEqual(["$2 per month", "$15 per year", "$50 one-time"]);
    expect(PRO_PLAN_KEYS.map((key) => PRO_PLANS[key].amount)).toEqual([200, 1500, 5000]);
  });

  it("say the yearly saving as a percentage of twelve monthly payments, rounded down", () => {
    // $15 a year against 12 × $2 = $24: 37.5 %, said as 37 %.
    expect(yearlySavingPercent()).toBe(37);
  });
});
