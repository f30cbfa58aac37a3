/**
 * Stripe's standard US card pricing: 2.9 % + 30¢ per successful charge, in
 * integer minor units, the percentage rounded half up (Stripe rounds fees to
 * the nearest cent). 1000 → 59, 2500 → 103 (72.5 → 73), 100000 → 2930.
 */
export const CARD_FEE_PER_MILLE = 29;
export const CARD_FEE_FIXED = 30;

export function cardProcessingFee(amount: number): number {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new RangeError(`a charge is a positive whole number of minor units, got ${amount}`);
  // amount × 29 / 1000 rounded half up, without floating point.
  return Math.floor((amount * CARD_FEE_PER_MILLE + 500) / 1000) + CARD_FEE_FIXED;
}

/** Stripe's minimum charge in USD (50¢); a smaller checkout is refused as Stripe refuses it. */
export const MINIMUM_CHARGE = 50;

/** What a destination charge leaves the connected account: gross less the processing fee and the platform's share. */
export function splitCharge(amount: number, applicationFee: number) {
  const fee = cardProcessingFee(amount);
  return { gross: amount, fee, applicationFee, net: Math.max(0, amount - fee - applicationFee) };
}
