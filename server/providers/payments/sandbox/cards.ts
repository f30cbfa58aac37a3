/**
 * The sandbox's card rules: Stripe's well-known test cards and its messages
 * (https://docs.stripe.com/testing). The sandbox never keeps a card number,
 * only its brand and last four digits; a number that is not a test card is
 * declined, as Stripe declines real cards in test mode.
 */
import { refusal, success, type Refusal, type Success } from "#server/platform/errors";

export type CardField = "number" | "expiry" | "cvc" | "postalCode";

export type CardInput = { number: string; expiry: string; cvc: string; postalCode: string };

/** A card the sandbox takes, or Stripe's decline code as the refusal's reason, beside the field it is about. */
export type CardCheck =
  | Success<{ brand: CardBrand; last4: string; failsLaterCharges?: true }>
  | Refusal<"payment-required", CardErrorCode, { field: CardField }>;

export type CardBrand = "visa" | "mastercard" | "amex" | "discover";
export type CardErrorCode =
  | "invalid_number"
  | "incomplete_expiry"
  | "invalid_expiry_year"
  | "expired_card"
  | "incomplete_cvc"
  | "incomplete_zip"
  | "card_declined"
  | "insufficient_funds"
  | "test_mode_live_card";

export const CARD_MESSAGES = {
  invalid_number: "Your card number is invalid.",
  incomplete_expiry: "Your card's expiration date is incomplete.",
  invalid_expiry_year: "Your card's expiration year is invalid.",
  expired_card: "Your card's expiration date is in the past.",
  incomplete_cvc: "Your card's security code is incomplete.",
  incomplete_zip: "Your ZIP code is incomplete.",
  card_declined: "Your card was declined.",
  insufficient_funds: "Your card has insufficient funds.",
  test_mode_live_card: "Your card was declined. This is a test page: use a test card, such as 4242 4242 4242 4242.",
} as const satisfies Record<CardErrorCode, string>;

type TestCard = { brand: CardBrand; outcome: "succeeds" | "card_declined" | "insufficient_funds"; label: string; failsLaterCharges?: true };

/** The test cards this sandbox knows, as Stripe documents them. */
export const TEST_CARDS: Record<string, TestCard> = {
  "4242424242424242": { brand: "visa", outcome: "succeeds", label: "Visa: succeeds" },
  "4000000000000077": { brand: "visa", outcome: "succeeds", label: "Visa: succeeds, funds available at once (the same here)" },
  "4000056655665556": { brand: "visa", outcome: "succeeds", label: "Visa debit: succeeds" },
  "5555555555554444": { brand: "mastercard", outcome: "succeeds", label: "Mastercard: succeeds" },
  "378282246310005": { brand: "amex", outcome: "succeeds", label: "American Express: succeeds (4-digit CVC)" },
  "6011111111111117": { brand: "discover", outcome: "succeeds", label: "Discover: succeeds" },
  // As Stripe's 4000 0000 0000 0341: the card is taken, later charges of it (a subscription's renewal) fail.
  "4000000000000341": { brand: "visa", outcome: "succeeds", label: "Visa: pays now, its renewals fail (Pro and memberships)", failsLaterCharges: true },
  "4000000000000002": { brand: "visa", outcome: "card_declined", label: "Visa: declined" },
  "4000000000009995": { brand: "visa", outcome: "insufficient_funds", label: "Visa: declined, insufficient funds" },
};

const fail = (field: CardField, code: CardErrorCode): CardCheck => refusal("payment-required", code, CARD_MESSAGES[code], { field });

/** Digits only, once the spaces and dashes people type are taken out; null when anything else is there. */
export function cardDigits(number: string): string | null {
  if (number.length > 40) return null;
  const digits = number.replace(/[ -]/g, "");
  return /^\d{12,19}$/.test(digits) ? digits : null;
}

export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** "MM / YY", "MM/YY", "MMYY" or "MM/YYYY" → the month and four-digit year; null when it is not one of them. */
export function parseExpiry(expiry: string): { month: number; year: number } | null {
  const match = /^\s*(\d{1,2})\s*[/-]?\s*(\d{2}|\d{4})\s*$/.exec(expiry.length > 20 ? "" : expiry);
  if (!match) return null;
  const month = Number(match[1]);
  const year = match[2]!.length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
  if (month < 1 || month > 12) return null;
  return { month, year };
}

/**
 * Checks the fields in the order Stripe's form does (number, expiry, CVC,
 * ZIP), then what the card's issuer says. `now` decides whether the card has
 * expired: a card is good through the last day of its month (UTC).
 */
export function checkCard(input: CardInput, now: Date): CardCheck {
  const digits = cardDigits(input.number);
  if (!digits || !passesLuhn(digits)) return fail("number", "invalid_number");
  const expiry = parseExpiry(input.expiry);
  if (!expiry) return fail("expiry", "incomplete_expiry");
  const thisYear = now.getUTCFullYear();
  if (expiry.year > thisYear + 50) return fail("expiry", "invalid_expiry_year");
  if (expiry.year < thisYear || (expiry.year === thisYear && expiry.month < now.getUTCMonth() + 1)) return fail("expiry", "expired_card");
  const card = TEST_CARDS[digits];
  const cvcLength = card?.brand === "amex" ? 4 : 3;
  if (!new RegExp(`^\\d{${cvcLength}}$`).test(input.cvc.trim())) return fail("cvc", "incomplete_cvc");
  if (!/^\d{5}(-?\d{4})?$/.test(input.postalCode.trim())) return fail("postalCode", "incomplete_zip");
  if (!card) return fail("number", "test_mode_live_card");
  if (card.outcome !== "succeeds") return fail("number", card.outcome);
  return success({ brand: card.brand, last4: digits.slice(-4), ...(card.failsLaterCharges ? { failsLaterCharges: true as const } : {}) });
}
