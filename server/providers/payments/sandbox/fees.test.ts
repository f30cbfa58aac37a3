import { describe, expect, it } from "vitest";
import { splitCharge } from "./fees";

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
