import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { splitCharge, stripeStandardFee } from "./fees";

describe("a sandbox destination charge (2.9 % + 30¢, the platform pays it)", () => {
  it.each([
    [50, 31], // 1.45 → 1
    [100, 33], // 2.9 → 3
    [500, 45], // 14.5 → 15 (half up)
    [1000, 59],
    [2500, 103], // 72.5 → 73
    [1234, 66], // 35.786 → 36
    [10_000, 320],
    [100_000, 2_930],
    [99_999_999, 2_900_030], // 2,899,999.971 → 2,900,000
  ])("charges %i¢ a processing fee of %i¢", (amount, fee) => {
    expect(splitCharge(amount, 0).fee).toBe(fee);
  });

  it("refuses amounts that are not positive whole minor units", () => {
    for (const amount of [0, -1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 2]) expect(() => splitCharge(amount, 0)).toThrow(RangeError);
  });

  it("sends the account the gross less the platform's fee; the processing fee is the platform's cost", () => {
    expect(splitCharge(1000, 0)).toEqual({ gross: 1000, fee: 59, applicationFee: 0, net: 1000 });
    expect(splitCharge(2500, 125)).toEqual({ gross: 2500, fee: 103, applicationFee: 125, net: 2375 });
  });
});

/** 2.9 % of `amount`, rounded half up, in BigInt: the exact reference. */
function exactHalfUp(amount: number, basisPoints: number): number {
  return Number((BigInt(amount) * BigInt(basisPoints) + 5_000n) / 10_000n);
}

describe("stripeStandardFee (Stripe's standard pricing, as the sandbox charges it)", () => {
  it("is 2.9 % rounded to the cent plus 30¢", () => {
    expect(stripeStandardFee(1000, "usd")).toBe(59); // 29 + 30
    expect(stripeStandardFee(500, "usd")).toBe(45); // 14.5 → 15, + 30
    expect(stripeStandardFee(50, "usd")).toBe(31); // 1.45 → 1, + 30
    expect(stripeStandardFee(1_000_000, "usd")).toBe(29_030);
    expect(stripeStandardFee(2_345, "usd")).toBe(98); // 68.005 → 68, + 30
  });

  it("never exceeds the amount and is 0 for nothing", () => {
    expect(stripeStandardFee(0, "usd")).toBe(0);
    expect(stripeStandardFee(20, "usd")).toBe(20);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000_000 }), (amount) => {
        const fee = stripeStandardFee(amount, "usd");
        expect(fee).toBeLessThanOrEqual(amount);
        if (amount >= 31) expect(fee).toBe(exactHalfUp(amount, 290) + 30);
      }),
    );
  });

  it("knows no pricing for other currencies rather than guessing one", () => {
    expect(() => stripeStandardFee(1000, "eur")).toThrow(RangeError);
  });
});
