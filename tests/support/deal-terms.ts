import { parseTerms, type DealTermsInput, type TermsFormFields } from "#server/domains/deals/terms-form";

/**
 * One set of deal terms for the tests, in each shape they reach the platform in: the terms form as
 * read (TermsFormFields), the form as a browser posts it, the terms parsed, and the API's JSON.
 * $750 for one YouTube integration due in 2099, organic usage for 30 days, no exclusivity.
 */
export const TERMS_FORM: TermsFormFields = {
  price: "750",
  usageRights: "organic",
  usageDays: "30",
  exclusivityDays: "0",
  autoApproveDays: "3",
  message: "",
  disclosureRequired: true,
  sponsorApproves: true,
  deliverableChannel: ["YouTube"],
  deliverableFormat: ["60-second integration"],
  deliverableDue: ["2099-03-01"],
};

/** The same terms in the API's JSON (`terms` of an application, an offer or a counter). */
export const TERMS_JSON = { price: 75_000, currency: "usd", deliverables: [{ channel: "YouTube", format: "60-second integration", dueDate: "2099-03-01" }], usageRights: "organic" };

export const termsForm = (overrides: Partial<TermsFormFields> = {}): TermsFormFields => ({ ...TERMS_FORM, ...overrides });

/** The form's terms as parsed; a refusal fails the test there, with the fields it names. */
export function parsedTerms(overrides: Partial<TermsFormFields> = {}): DealTermsInput {
  const parsed = parseTerms(termsForm(overrides));
  if (parsed.kind !== "SUCCESS") throw new Error(JSON.stringify(parsed.fieldErrors));
  return parsed.terms;
}

/**
 * The form as a browser posts it: ticked boxes as "on" and unticked ones absent, the first
 * deliverable row (the one a test posts) as plain fields.
 */
export function termsPost(overrides: Partial<TermsFormFields> = {}): Record<string, string> {
  const form = termsForm(overrides);
  return {
    price: form.price,
    usageRights: form.usageRights,
    usageDays: form.usageDays,
    exclusivityDays: form.exclusivityDays,
    autoApproveDays: form.autoApproveDays,
    message: form.message,
    ...(form.disclosureRequired ? { disclosureRequired: "on" } : {}),
    ...(form.sponsorApproves ? { sponsorApproves: "on" } : {}),
    deliverableChannel: form.deliverableChannel[0] ?? "",
    deliverableFormat: form.deliverableFormat[0] ?? "",
    deliverableDue: form.deliverableDue[0] ?? "",
  };
}
