import { eq } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { billingDetails } from "#server/platform/db/schema";
import { fieldRefusal, success, type FieldRefusal, type Success } from "#server/platform/errors";

/**
 * An account's billing details: what its invoices say about it (server/domains/deals/paperwork-documents.ts).
 * A creator may add the tax their prices include (a label such as "VAT" and a rate): the invoice
 * then shows the part of the price that is tax. The platform does not compute, add or collect tax.
 */

export const BILLING_LIMITS = { legalName: 200, address: 500, country: 60, taxId: 40, taxLabel: 30, maxRatePercent: 50 } as const;

export type BillingDetails = {
  legalName: string;
  address: string;
  country: string;
  taxId: string | null;
  /** The tax a creator's prices include; null when they charge none. */
  tax: { label: string; rateBasisPoints: number } | null;
};

/** The form as typed: every field a string, so a refused form comes back as the person left it. */
export type BillingDetailsForm = { legalName: string; address: string; country: string; taxId: string; taxLabel: string; taxRate: string };

export type BillingFieldErrors = Partial<Record<keyof BillingDetailsForm, string>>;

export async function billingDetailsOf(db: Db, uid: string): Promise<BillingDetails | null> {
  const [row] = await db.select().from(billingDetails).where(eq(billingDetails.uid, uid));
  if (!row) return null;
  return {
    legalName: row.legalName,
    address: row.address,
    country: row.country,
    taxId: row.taxId,
    tax: row.taxLabel !== null && row.taxRateBasisPoints !== null ? { label: row.taxLabel, rateBasisPoints: row.taxRateBasisPoints } : null,
  };
}

/** Saved details as the form shows them again. */
export function billingFormOf(details: BillingDetails | null): BillingDetailsForm {
  return {
    legalName: details?.legalName ?? "",
    address: details?.address ?? "",
    country: details?.country ?? "",
    taxId: details?.taxId ?? "",
    taxLabel: details?.tax?.label ?? "",
    taxRate: details?.tax ? ratePercentText(details.tax.rateBasisPoints) : "",
  };
}

/** 2000 → "20", 750 → "7.5", 1925 → "19.25". */
export function ratePercentText(basisPoints: number): string {
  return String(basisPoints / 100);
}

const length = (text: string) => [...text].length;

/**
 * "20", "7.5", "19,25" or "20 %" as basis points; null for anything else. More than two decimals
 * is refused rather than rounded: the invoice must show the rate the person typed.
 */
export function parseTaxRate(text: string): number | null {
  const plain = text.replace(/\s|%/g, "").replace(",", ".");
  const match = /^(\d{1,3})(?:\.(\d{1,2}))?$/.exec(plain);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
}

/** The form checked field by field: the details to save, or a message beside each field that needs a change. */
export function checkBillingForm(form: BillingDetailsForm): Success<{ details: BillingDetails }> | FieldRefusal<BillingFieldErrors> {
  const legalName = form.legalName.trim();
  const address = form.address.replace(/\r\n?/g, "\n").trim();
  const country = form.country.trim();
  const taxId = form.taxId.trim();
  const taxLabel = form.taxLabel.trim();
  const taxRate = form.taxRate.trim();
  const errors: BillingFieldErrors = {};

  if (!legalName) errors.legalName = "Enter the name to put on invoices: your legal or company name.";
  else if (length(legalName) > BILLING_LIMITS.legalName) errors.legalName = `Keep the name to ${BILLING_LIMITS.legalName} characters.`;
  if (length(address) > BILLING_LIMITS.address) errors.address = `Keep the address to ${BILLING_LIMITS.address} characters.`;
  if (length(country) > BILLING_LIMITS.country) errors.country = `Keep the country to ${BILLING_LIMITS.country} characters.`;
  if (length(taxId) > BILLING_LIMITS.taxId) errors.taxId = `Keep the tax id to ${BILLING_LIMITS.taxId} characters.`;

  let rateBasisPoints: number | null = null;
  if (taxRate) {
    rateBasisPoints = parseTaxRate(taxRate);
    if (rateBasisPoints === null) errors.taxRate = "Enter the rate as a number of percent, such as 20 or 7.5 (at most two decimals).";
    else if (rateBasisPoints <= 0 || rateBasisPoints > BILLING_LIMITS.maxRatePercent * 100) errors.taxRate = `Enter a rate above 0 and at most ${BILLING_LIMITS.maxRatePercent}%.`;
  }
  if (taxLabel && length(taxLabel) > BILLING_LIMITS.taxLabel) errors.taxLabel = `Keep the tax's name to ${BILLING_LIMITS.taxLabel} characters.`;
  if (taxLabel && !taxRate) errors.taxRate = `Enter the rate of ${taxLabel}, or clear its name.`;
  if (taxRate && !taxLabel) errors.taxLabel = "Name the tax, such as VAT or GST, or clear the rate.";

  if (Object.keys(errors).length > 0) return fieldRefusal(errors);
  return success({
    details: {
      legalName,
      address,
      country,
      taxId: taxId || null,
      tax: taxLabel && rateBasisPoints !== null ? { label: taxLabel, rateBasisPoints } : null,
    },
  });
}

/** Saves the account's billing details, checked first; invoices already issued keep what they said. */
export async function saveBillingDetails(db: Db, uid: string, form: BillingDetailsForm, now = new Date()): Promise<Success<{ details: BillingDetails }> | FieldRefusal<BillingFieldErrors>> {
  const checked = checkBillingForm(form);
  if (checked.kind === "ERROR") return checked;
  const { details } = checked;
  const row = {
    legalName: details.legalName,
    address: details.address,
    country: details.country,
    taxId: details.taxId,
    taxLabel: details.tax?.label ?? null,
    taxRateBasisPoints: details.tax?.rateBasisPoints ?? null,
    updatedAt: now,
  };
  await db.insert(billingDetails).values({ uid, ...row }).onConflictDoUpdate({ target: billingDetails.uid, set: row });
  return success({ details });
}
