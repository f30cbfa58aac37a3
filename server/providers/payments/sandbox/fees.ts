import { PAYMENT_LIMITS } from "#isomorphic/payment-limits";

/** Stripe's standard pricing for domestic cards on a US account: 2.9 % + 30¢. */
export const STRIPE_STANDARD_CARD_PRICING = { percent: 2.9, fixed: { usd: 30 } } as const;

/**
 * What Stripe's standard US card pricing would charge on `amount`: 2.9 % of it,
 * rounded to the nearest cent (half up), plus 30¢ — never more than the amount.
 * The sandbox charges it so its gross, fee and net look like Stripe's (the
 * Stripe emulator in tests charges the same). The ledger never computes a fee:
 * it records the one of the payment's balance transaction.
 */
export function stripeStandardFee(amount: number, currency: string): number {
  if (!Number.isSafeInteger(amount) || amount < 0) throw new RangeError(`An amount must be a non-negative whole number of minor units (got ${amount})`);
  const fixed = STRIPE_STANDARD_CARD_PRICING.fixed[currency as keyof typeof STRIPE_STANDARD_CARD_PRICING.fixed];
  if (fixed === undefined) throw new RangeError(`No standard card pricing known for currency "${currency}"`);
  if (amount === 0) return 0;
  // 2.9 % is 290 basis points; + 5,000 rounds the ten-thousandths half up, in integers.
  return Math.min(amount, Math.floor((amount * STRIPE_PERCENT_POINTS + 5_000) / 10_000) + fixed);
}

const STRIPE_PERCENT_POINTS = Math.round(STRIPE_STANDARD_CARD_PRICING.percent * 100);

/** Stripe's minimum charge in USD (50¢); a smaller checkout is refused as Stripe refuses it. */
export const MINIMUM_CHARGE = PAYMENT_LIMITS.usd.minimum;

/**
 * A destination charge as Stripe settles it (decision 0019): the processing
 * fee (Stripe's standard US card pricing, 2.9 % + 30¢ rounded half up) is taken
 * from the platform's balance, and the connected account receives the gross
 * less the platform's application fee.
 */
export function splitCharge(amount: number, applicationFee: number) {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new RangeError(`a charge is a positive whole number of minor units, got ${amount}`);
  return { gross: amount, fee: stripeStandardFee(amount, "usd"), applicationFee, net: amount - applicationFee };
}

/**
 * A charge the platform holds (a deal's, separate charges and transfers): the same processing fee,
 * no application fee, and nothing reaches a connected account when it is paid (`net` 0); transfers
 * move the creator's share later.
 */
export function holdCharge(amount: number) {
  return { ...splitCharge(amount, 0), net: 0 };
}

/**
 * The application fee of a subscription's invoice (Stripe's application_fee_percent, held here in
 * basis points): that share of the amount, rounded half up to a whole minor unit, as the ledger's
 * platformFeeFor works it out for a tip, so both sides agree on every renewal.
 */
export function applicationFeeOf(amount: number, basisPoints: number): number {
  if (!Number.isSafeInteger(basisPoints) || basisPoints < 0 || basisPoints > 10_000) throw new RangeError(`basis points must be 0 to 10000, got ${basisPoints}`);
  return Math.floor((amount * basisPoints + 5_000) / 10_000);
}
