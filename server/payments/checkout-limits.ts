/**
 * What one sponsor payment may be, in minor units (cents). At least Stripe's
 * minimum charge in USD (50 cents: below it Stripe refuses the charge), and at
 * most $10,000, a sane ceiling for one tip or sponsorship from a bio page —
 * larger amounts are a typo or a test of the form, and are refused before any
 * checkout is made. (The Stripe provider's helper may define its own
 * provider-wide limits; these are the checkout's.)
 */
export const MIN_PAYMENT_CENTS = 50;
export const MAX_PAYMENT_CENTS = 1_000_000;

/** The platform's share of `amount` at PLATFORM_FEE_PERCENT (0–50, two decimals), rounded to the cent. */
export function platformFeeOf(amount: number, percent: number): number {
  return Math.min(amount, Math.round((amount * Math.round(percent * 100)) / 10_000));
}
