import { describe, expect, it } from "vitest";
import { amountProblem, PAYMENT_LIMITS } from "#isomorphic/payment-limits";

describe("amountProblem", () => {
  it("accepts whole cents from Stripe's 50¢ minimum to $10,000", () => {
    expect(PAYMENT_LIMITS.usd).toEqual({ minimum: 50, maximum: 1_000_000 });
    for (const amount of [50, 51, 500, 99_999, 1_000_000]) expect(amountProblem(amount, "usd")).toBeNull();
  });

  it("names what is wrong with any other amount", () => {
    expect(amountProblem(49, "usd")).toEqual({ reason: "BELOW_MINIMUM", minimum: 50 });
    expect(amountProblem(0, "usd")).toEqual({ reason: "BELOW_MINIMUM", minimum: 50 });
    expect(amountProblem(-500, "usd")).toEqual({ reason: "BELOW_MINIMUM", minimum: 50 });
    expect(amountProblem(1_000_001, "usd")).toEqual({ reason: "ABOVE_MAXIMUM", maximum: 1_000_000 });
    expect(amountProblem(10.5, "usd")).toEqual({ reason: "NOT_WHOLE_MINOR_UNITS" });
    expect(amountProblem(Number.NaN, "usd")).toEqual({ reason: "NOT_WHOLE_MINOR_UNITS" });
    expect(amountProblem(Number.POSITIVE_INFINITY, "usd")).toEqual({ reason: "NOT_WHOLE_MINOR_UNITS" });
    expect(amountProblem(1000, "eur")).toEqual({ reason: "UNSUPPORTED_CURRENCY", currency: "eur" });
    expect(amountProblem(1000, "USD")).toEqual({ reason: "UNSUPPORTED_CURRENCY", currency: "USD" });
    expect(amountProblem(1000, "__proto__")).toEqual({ reason: "UNSUPPORTED_CURRENCY", currency: "__proto__" });
  });
});
