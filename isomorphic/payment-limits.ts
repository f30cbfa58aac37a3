/**
 * What one sponsor payment may be, decided on the server (the browser only
 * proposes an amount). Integer minor units; lowercase ISO 4217 currencies.
 *
 * - Minimum: Stripe's minimum charge amount for the currency (Stripe lists
 *   $0.50 for usd: below it Checkout refuses to create the session, and the
 *   fixed 30¢ fee would eat most of the payment anyway).
 * - Maximum: $10,000 per payment. Far above any tip or listed sponsorship on
 *   the product, and low enough to bound the harm of a typo or of a stolen card
 *   (the creator carries disputes on destination charges through the reversed
 *   transfer). Larger deals are arranged with the creator directly. Stripe's
 *   own ceiling ($999,999.99) is no useful limit for a card payment by a person.
 */
export const PAYMENT_LIMITS = {
  usd: { minimum: 50, maximum: 1_000_000 },
} as const;

export type PaymentCurrency = keyof typeof PAYMENT_LIMITS;

export const DEFAULT_CURRENCY: PaymentCurrency = "usd";

export function isPaymentCurrency(currency: string): currency is PaymentCurrency {
  return Object.hasOwn(PAYMENT_LIMITS, currency);
}

/** Why an amount cannot be charged: a reason, as refusals name theirs (server/platform/errors.ts). */
export type AmountProblem =
  | { reason: "NOT_WHOLE_MINOR_UNITS" }
  | { reason: "UNSUPPORTED_CURRENCY"; currency: string }
  | { reason: "BELOW_MINIMUM"; minimum: number }
  | { reason: "ABOVE_MAXIMUM"; maximum: number };

/** Why `amount` cannot be charged in `currency`, or null when it can. */
export function amountProblem(amount: number, currency: string): AmountProblem | null {
  if (!Number.isSafeInteger(amount)) return { reason: "NOT_WHOLE_MINOR_UNITS" };
  if (!isPaymentCurrency(currency)) return { reason: "UNSUPPORTED_CURRENCY", currency };
  const { minimum, maximum } = PAYMENT_LIMITS[currency];
  if (amount < minimum) return { reason: "BELOW_MINIMUM", minimum };
  if (amount > maximum) return { reason: "ABOVE_MAXIMUM", maximum };
  return null;
}

/** Said when an opportunity lists no contribution to collect (the checkout form shows it, the server refuses with it). */
export const NO_PLATFORM_FUNDS_MESSAGE = "Funds cannot be collected through the platform for this opportunity";
