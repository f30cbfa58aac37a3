import { refusal, success, type Refusal, type Success } from "#server/platform/errors";
import type { OnboardingDetails } from "./accounts";

export type OnboardingField = "legalName" | "country" | "bankAccount" | "agree";
export type OnboardingValues = { legalName: string; country: string; bankAccount: string; agree: boolean };
/** The details to onboard with, or the refused fields beside what was typed (to put back into the form). */
export type OnboardingFormResult =
  | Success<{ details: OnboardingDetails }>
  | Refusal<"invalid-argument", "INVALID_FIELDS", { values: OnboardingValues; errors: Partial<Record<OnboardingField, string>> }>;

/** Stripe's test bank account number (routing 110000000): what the form offers. */
export const TEST_BANK_ACCOUNT = "000123456789";

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value.trim() : "";
};

/** The sandbox's short onboarding form: legal name, country (US), a test bank account, and consent. */
export function parseOnboardingForm(form: FormData): OnboardingFormResult {
  const values: OnboardingValues = {
    legalName: text(form, "legalName").replace(/\s+/g, " "),
    country: text(form, "country"),
    bankAccount: text(form, "bankAccount").replace(/[\s-]/g, ""),
    agree: form.get("agree") === "on",
  };
  const errors: Partial<Record<OnboardingField, string>> = {};
  if (!values.legalName) errors.legalName = "Enter the legal name of the person or company.";
  else if (values.legalName.length > 100) errors.legalName = "Use at most 100 characters.";
  if (values.country !== "US") errors.country = "The sandbox onboards accounts in the United States only.";
  if (!/^\d{4,17}$/.test(values.bankAccount)) errors.bankAccount = "Enter a bank account number of 4 to 17 digits, such as the test account 000123456789.";
  if (!values.agree) errors.agree = "Agree to the sandbox terms to continue.";
  if (Object.keys(errors).length > 0) return refusal("invalid-argument", "INVALID_FIELDS", "Check the highlighted fields.", { values, errors });
  return success({ details: { legalName: values.legalName, country: "US", bankAccount: values.bankAccount } });
}
