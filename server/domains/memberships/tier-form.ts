import { amountInputText, parseAmountInput } from "#isomorphic/amount-input";
import { formatMoney } from "#isomorphic/format";
import { MEMBERSHIP_LIMITS } from "#isomorphic/membership-limits";
import { fieldRefusal, success, type FieldRefusal, type Success } from "#server/platform/errors";

/**
 * A membership tier as its form types it and as it is stored (ADR 0084): every field checked at
 * once against isomorphic/membership-limits.ts, so one save shows every problem beside its field.
 */

/** The form as typed: prices in dollars ("5", "4.50"), benefits one a line, the limit blank for none. */
export type TierInput = { name: string; monthlyPrice: string; yearlyPrice: string; benefits: string; memberLimit: string; welcomeMessage: string };
export type TierFieldErrors = Partial<Record<keyof TierInput, string>>;

/** What a tier holds once checked: prices in minor units. */
export type TierFields = {
  name: string;
  monthlyPrice: number;
  /** Null: sold by the month only. */
  yearlyPrice: number | null;
  benefits: string[];
  /** Null: no limit. */
  memberLimit: number | null;
  welcomeMessage: string;
};

const chars = (text: string) => [...text].length;
const money = (minorUnits: number) => formatMoney(minorUnits);
const PRICE_RANGE = `from ${money(MEMBERSHIP_LIMITS.minimumPrice)} to ${money(MEMBERSHIP_LIMITS.maximumPrice)}`;

/** One price field: minor units, or the message it shows. */
function readPrice(text: string, what: string): number | string {
  const amount = parseAmountInput(text);
  if (amount === null) return `Enter the ${what} in dollars, like 5 or 4.50`;
  if (amount < MEMBERSHIP_LIMITS.minimumPrice || amount > MEMBERSHIP_LIMITS.maximumPrice) return `The ${what} must be ${PRICE_RANGE}`;
  return amount;
}

/** The form's fields for a stored tier, as they are typed. */
export function tierInputOf(tier: TierFields): TierInput {
  return {
    name: tier.name,
    monthlyPrice: amountInputText(tier.monthlyPrice),
    yearlyPrice: tier.yearlyPrice === null ? "" : amountInputText(tier.yearlyPrice),
    benefits: tier.benefits.join("\n"),
    memberLimit: tier.memberLimit === null ? "" : String(tier.memberLimit),
    welcomeMessage: tier.welcomeMessage,
  };
}

export const BLANK_TIER_INPUT: TierInput = { name: "", monthlyPrice: "", yearlyPrice: "", benefits: "", memberLimit: "", welcomeMessage: "" };

/**
 * The form checked. Benefits are the non-blank lines, trimmed. The yearly price is optional and
 * held to the same bounds as the monthly one: each is one card payment, like a tip.
 */
export function parseTierForm(input: TierInput): Success<{ fields: TierFields }> | FieldRefusal<TierFieldErrors> {
  const errors: TierFieldErrors = {};
  const name = input.name.replace(/\s+/g, " ").trim();
  if (!name) errors.name = "Give the tier a name, like “Gold”";
  else if (chars(name) > MEMBERSHIP_LIMITS.nameMax) errors.name = `Keep the name to ${MEMBERSHIP_LIMITS.nameMax} characters or fewer`;

  const monthly = input.monthlyPrice.trim() ? readPrice(input.monthlyPrice, "monthly price") : "Enter the monthly price in dollars, like 5";
  if (typeof monthly === "string") errors.monthlyPrice = monthly;
  const yearly = input.yearlyPrice.trim() ? readPrice(input.yearlyPrice, "yearly price") : null;
  if (typeof yearly === "string") errors.yearlyPrice = yearly;

  const benefits = input.benefits
    .split(/\r\n?|\n/)
    .map((line) => line.replace(/\s+/g, " ").trim())
    .filter(Boolean);
  if (benefits.length > MEMBERSHIP_LIMITS.benefitsMax) errors.benefits = `List at most ${MEMBERSHIP_LIMITS.benefitsMax} benefits, one a line`;
  else if (benefits.some((line) => chars(line) > MEMBERSHIP_LIMITS.benefitMax)) errors.benefits = `Keep each benefit to ${MEMBERSHIP_LIMITS.benefitMax} characters or fewer`;

  const limitText = input.memberLimit.trim();
  const memberLimit = limitText ? (/^\d{1,6}$/.test(limitText) ? Number(limitText) : Number.NaN) : null;
  if (memberLimit !== null && !(memberLimit >= 1 && memberLimit <= MEMBERSHIP_LIMITS.memberLimitMax)) {
    errors.memberLimit = `Enter a whole number from 1 to ${MEMBERSHIP_LIMITS.memberLimitMax.toLocaleString("en-US")}, or leave it blank for no limit`;
  }

  const welcomeMessage = input.welcomeMessage.replace(/\r\n?/g, "\n").trim();
  if (chars(welcomeMessage) > MEMBERSHIP_LIMITS.welcomeMax) errors.welcomeMessage = `Keep the welcome message to ${MEMBERSHIP_LIMITS.welcomeMax} characters or fewer`;

  if (Object.keys(errors).length > 0 || typeof monthly !== "number" || typeof yearly === "string") return fieldRefusal(errors);
  return success({ fields: { name, monthlyPrice: monthly, yearlyPrice: yearly, benefits, memberLimit, welcomeMessage } });
}
