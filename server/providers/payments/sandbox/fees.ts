import { PAYMENT_LIMITS } from "#isomorphic/payment-limits";
import { stripeStandardFee } from "#server/domains/payments/ledger/fees";

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
