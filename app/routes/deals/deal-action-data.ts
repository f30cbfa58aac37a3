import type { TermsFieldErrors, TermsFormFields } from "#server/domains/deals/terms-form";
import type { RefusedWork } from "#app/components/deals/DealWork";

/** What the deal page's forms answer when refused (deal-action.server.ts, deal-upload-action.server.ts): the form, given back with why. */
export type DealActionData = {
  intent: string;
  message?: string;
  reason?: string;
  errors?: TermsFieldErrors & { body?: string };
  terms?: TermsFormFields;
  /** A thread message that was refused, given back to the box. */
  body?: string;
  /** A work form that was refused: which deliverable, what was typed and why not. */
  work?: RefusedWork;
  /** Why the files of a message or of the brief were refused; and the brief's text, given back. */
  files?: string;
  brief?: string;
};
