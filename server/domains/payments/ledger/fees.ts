/**
 * Money arithmetic for sponsor payments, in integer minor units (cents for
 * usd). Pure functions: no configuration is read here.
 */

/** Basis points (1/100 of a percent) of a percentage with at most two decimals, e.g. 2.5 → 250. */
function basisPoints(percent: number): number {
  const points = Math.round(percent * 100);
  if (!Number.isFinite(percent) || percent < 0 || percent > 100 || Math.abs(percent * 100 - points) > 1e-6) {
    throw new RangeError(`A fee percent must be between 0 and 100 with at most two decimals (got ${percent})`);
  }
  return points;
}

function assertAmount(amount: number) {
  // amount × 10,000 basis points must stay exact in a double.
  if (!Number.isSafeInteger(amount) || amount < 0 || amount > Number.MAX_SAFE_INTEGER / 10_000) {
    throw new RangeError(`An amount must be a non-negative whole number of minor units (got ${amount})`);
  }
}

/** `amount × points / 10,000`, rounded half up, exactly (no floating-point fractions involved). */
function shareOf(amount: number, points: number): number {
  return Math.floor((amount * points + 5_000) / 10_000);
}

/**
 * The platform's share of a sponsor payment (Stripe's `application_fee_amount`):
 * `percent` of `amount`, rounded half up to a whole minor unit. Never more than
 * the amount; 0 when the percent is 0.
 */
export function platformFeeFor(amount: number, percent: number): number {
  assertAmount(amount);
  return shareOf(amount, basisPoints(percent));
}
