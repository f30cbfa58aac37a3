import { parseEmail } from "#server/domains/auth/flows";
import { refusal, success, type Refusal, type Success } from "#server/platform/errors";
import type { AccountType } from "#server/providers/payments/port";

/** The payments setup form (SPEC §2.5): account type (Individual by default) and the payout account's email. */
export type SetupValues = { accountType: AccountType; email: string };

/** The values to connect with, or the refused fields beside what was typed (to put back into the form). */
export type SetupForm = Success<{ values: SetupValues }> | Refusal<"invalid-argument", "INVALID_FIELDS", { values: SetupValues; errors: { email?: string; accountType?: string } }>;

export const ACCOUNT_TYPE_LABELS: Record<AccountType, string> = { individual: "Individual", company: "Company" };

export function parseSetupForm(form: FormData): SetupForm {
  const rawType = form.get("accountType");
  const rawEmail = form.get("email");
  const emailText = typeof rawEmail === "string" ? rawEmail : "";
  const typeKnown = rawType === null || rawType === "individual" || rawType === "company";
  const values: SetupValues = { accountType: rawType === "company" ? "company" : "individual", email: emailText.trim() };
  const errors: { email?: string; accountType?: string } = {};
  if (!typeKnown) errors.accountType = "Choose Individual or Company.";
  const email = parseEmail(emailText);
  if (emailText.trim() === "") errors.email = "Required";
  else if (!email) errors.email = "Email is invalid. Please try again.";
  if (errors.email || errors.accountType) return refusal("invalid-argument", "INVALID_FIELDS", "Check the highlighted fields.", { values, errors });
  return success({ values: { ...values, email: email! } });
}
