import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { platformFeeFor } from "#server/domains/payments/ledger/fees";

const amounts = fc.integer({ min: 0, max: 100_000_000 });
// Percents as configured: 0 to 50 with at most two decimals.
const percents = fc.integer({ min: 0, max: 5_000 }).map((points) => points / 100);

/** The exact rational answer, rounded half up, in BigInt: the reference the fast version must equal. */
function exactHalfUp(amount: number, basisPoints: number): number {
  const numerator = BigInt(amount) * BigInt(basisPoints);
  const quotient = numerator / 10_000n;
  const remainder = numerator % 10_000n;
  return Number(remainder * 2n >= 10_000n ? quotient + 1n : quotient);
}

describe("platformFeeFor", () => {
  it("is the percent of the amount rounded half up to a whole cent", () => {
    fc.assert(
      fc.property(amounts, percents, (amount, percent) => {
        expect(platformFeeFor(amount, percent)).toBe(exactHalfUp(amount, Math.round(percent * 100)));
      }),
      { numRuns: 2_000 },
    );
  });

  it("is a whole number between 0 and the amount, 0 at 0 %, and never shrinks as the amount grows", () => {
    fc.assert(
      fc.property(amounts, amounts, percents, (a, b, percent) => {
        const fee = platformFeeFor(a, percent);
        expect(Number.isInteger(fee)).toBe(true);
        expect(fee).toBeGreaterThanOrEqual(0);
        expect(fee).toBeLessThanOrEqual(a);
        expect(platformFeeFor(a, 0)).toBe(0);
        if (a <= b) expect(fee).toBeLessThanOrEqual(platformFeeFor(b, percent));
      }),
    );
  });

  it("rounds the half cent up and the rest to the nearest cent", () => {
    expect(platformFeeFor(1000, 5)).toBe(50);
    expect(platformFeeFor(50, 1)).toBe(1); // 0.5 → 1
    expect(platformFeeFor(49, 1)).toBe(0); // 0.49 → 0
    expect(platformFeeFor(1999, 2.5)).toBe(50); // 49.975 → 50
    expect(platformFeeFor(333, 33.33)).toBe(111); // 110.9889 → 111
    // 1.15 × 100 is 114.99999999999999 in floating point: the percent still counts as 1.15.
    expect(platformFeeFor(10_000, 1.15)).toBe(115);
  });

  it("refuses amounts that are not whole cents and percents with more than two decimals", () => {
    expect(() => platformFeeFor(10.5, 5)).toThrow(RangeError);
    expect(() => platformFeeFor(-1, 5)).toThrow(RangeError);
    expect(() => platformFeeFor(1000, 2.555)).toThrow(RangeError);
    expect(() => platformFeeFor(1000, -1)).toThrow(RangeError);
    expect(() => platformFeeFor(1000, Number.NaN)).toThrow(RangeError);
  });
});
