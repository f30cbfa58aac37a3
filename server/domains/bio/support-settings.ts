import { and, eq } from "drizzle-orm";
import { amountInputText, parseAmountInput } from "#isomorphic/amount-input";
import { formatMoney } from "#isomorphic/format";
import type { Db } from "#server/platform/db/client";
import { bioPages, connectedAccounts } from "#server/platform/db/schema";
import { domainError, fieldRefusal, success, type DomainError, type FieldRefusal, type Result } from "#server/platform/errors";
import { DEFAULT_CURRENCY, PAYMENT_LIMITS } from "#isomorphic/payment-limits";
import { isBioPageId } from "./endings";

/**
 * The support block's settings (the "Support" part of the bio editor): tips
 * on or off, three preset amounts, the least a tip may be (a supporter may
 * always pay more), and the thank-you the success page shows. Amounts are
 * in the page's currency, which is the payment currency (tips are charged
 * in it, server/domains/payments/checkout/sponsor-session.ts).
 */

export const PRESET_COUNT = 3;
/** SPEC §5's longest text, as the checkout's message has it. */
export const MAX_THANK_YOU_LENGTH = 999;

export type SupportSettings = { acceptTips: boolean; tipPresets: number[]; tipMinimum: number; thankYouMessage: string };

/** The form as typed: amounts in dollars, like "5" or "2.50". */
export type SupportSettingsInput = { acceptTips: boolean; presets: string[]; tipMinimum: string; thankYouMessage: string };

export type SupportSettingsField = "preset0" | "preset1" | "preset2" | "tipMinimum" | "thankYouMessage";
export type SupportSettingsFieldErrors = Partial<Record<SupportSettingsField, string>>;

const NOT_FOUND = domainError("not-found", "There is no such page.");

const limits = PAYMENT_LIMITS[DEFAULT_CURRENCY];
const money = (minorUnits: number) => formatMoney(minorUnits, DEFAULT_CURRENCY);

/** The settings as the form shows them. */
export function supportSettingsInput(settings: SupportSettings): SupportSettingsInput {
  return {
    acceptTips: settings.acceptTips,
    presets: Array.from({ length: PRESET_COUNT }, (_, i) => (settings.tipPresets[i] === undefined ? "" : amountInputText(settings.tipPresets[i]))),
    tipMinimum: amountInputText(settings.tipMinimum),
    thankYouMessage: settings.thankYouMessage,
  };
}

/** One typed amount as minor units, or the message the field shows. */
function readAmount(text: string): number | string {
  if (!text.trim()) return "Required";
  const amount = parseAmountInput(text);
  return amount === null ? "Enter an amount in dollars, like 5 or 5.50" : amount;
}

/**
 * Every field checked at once, so one save shows every problem: the minimum
 * is at least what the payment provider can charge, each preset at least the
 * minimum, nothing above the largest payment we take (isomorphic/payment-limits.ts).
 */
export function parseSupportSettings(input: SupportSettingsInput): Result<{ settings: SupportSettings }, FieldRefusal<SupportSettingsFieldErrors>> {
  const errors: SupportSettingsFieldErrors = {};
  const minimum = readAmount(input.tipMinimum);
  if (typeof minimum === "string") errors.tipMinimum = minimum;
  else if (minimum < limits.minimum) errors.tipMinimum = `The minimum tip must be at least ${money(limits.minimum)}`;
  else if (minimum > limits.maximum) errors.tipMinimum = `The minimum tip must be at most ${money(limits.maximum)}`;

  const presets: number[] = [];
  for (let i = 0; i < PRESET_COUNT; i++) {
    const field = `preset${i}` as SupportSettingsField;
    const amount = readAmount(input.presets[i] ?? "");
    if (typeof amount === "string") errors[field] = amount;
    else if (amount > limits.maximum) errors[field] = `Must be at most ${money(limits.maximum)}`;
    else if (typeof minimum === "number" && !errors.tipMinimum && amount < minimum) errors[field] = `Must be at least your minimum tip, ${money(minimum)}`;
    else if (amount < limits.minimum) errors[field] = `Must be at least ${money(limits.minimum)}`;
    else presets.push(amount);
  }

  const thankYouMessage = input.thankYouMessage.replace(/\r\n?/g, "\n").trim();
  if ([...thankYouMessage].length > MAX_THANK_YOU_LENGTH) errors.thankYouMessage = "Must be under 1000 characters";

  if (Object.keys(errors).length > 0 || typeof minimum !== "number") return fieldRefusal(errors);
  return success({ settings: { acceptTips: input.acceptTips, tipPresets: presets, tipMinimum: minimum, thankYouMessage } });
}

type Owner = { uid: string };

/**
 * The owner's page's support settings, and whether the page takes payments
 * now (its owner's payout account is complete: fans see the block only then);
 * anyone else's page (or none) is not-found.
 */
export async function readSupportSettings(
  db: Db,
  owner: Owner,
  pageId: string,
): Promise<Result<{ settings: SupportSettings; takesPayments: boolean }, DomainError<"not-found">>> {
  if (!isBioPageId(pageId)) return NOT_FOUND;
  const [row] = await db
    .select({
      acceptTips: bioPages.acceptTips,
      tipPresets: bioPages.tipPresets,
      tipMinimum: bioPages.tipMinimum,
      thankYouMessage: bioPages.thankYouMessage,
      accountCompleted: connectedAccounts.completed,
    })
    .from(bioPages)
    .leftJoin(connectedAccounts, eq(connectedAccounts.uid, bioPages.uid))
    .where(and(eq(bioPages.id, pageId), eq(bioPages.uid, owner.uid)));
  if (!row) return NOT_FOUND;
  const { accountCompleted, ...settings } = row;
  return success({ settings, takesPayments: accountCompleted === true });
}

/**
 * Saves the settings of the owner's page, or changes nothing: someone else's
 * page is not-found before the fields are looked at. The write moves the
 * guest page generation (bio_pages' trigger), so the public page is drawn again.
 */
export async function saveSupportSettings(
  db: Db,
  owner: Owner,
  pageId: string,
  input: SupportSettingsInput,
): Promise<Result<{ settings: SupportSettings; customEnding: string }, DomainError<"not-found"> | FieldRefusal<SupportSettingsFieldErrors>>> {
  const own = await readSupportSettings(db, owner, pageId);
  if (own.kind === "ERROR") return own;
  const parsed = parseSupportSettings(input);
  if (parsed.kind === "ERROR") return parsed;
  const [saved] = await db
    .update(bioPages)
    .set({ ...parsed.settings, updatedAt: new Date() })
    .where(and(eq(bioPages.id, pageId), eq(bioPages.uid, owner.uid)))
    .returning({ customEnding: bioPages.customEnding });
  return saved ? success({ settings: parsed.settings, customEnding: saved.customEnding }) : NOT_FOUND;
}
