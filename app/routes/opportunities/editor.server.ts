import type { AppLoadContext } from "react-router";
import { formDataToInput, parseOpportunityForm, type FieldErrors, type OpportunityFormInput } from "#server/domains/opportunities/form";
import { createOpportunity, editOpportunity } from "#server/domains/opportunities/mutations";
import { allTags, loadTagCatalogue } from "#server/domains/opportunities/tags";
import { readForm } from "#page-kit/form.server";
import { answerRefusal } from "#page-kit/respond.server";
import { redirectWithToast } from "#server/platform/http/toast-cookie";

export type EditorActionData = {
  values: OpportunityFormInput;
  errors: FieldErrors;
  message?: string;
  /** New on every refused form: the fields mount afresh with the salvaged text (no NUL) in them. */
  formKey?: string;
};

/**
 * Shared by the new and edit pages: validate, save, then on to the detail
 * page. Editing takes the post's id from the form's `docId` field.
 */
export async function saveOpportunity(request: Request, context: AppLoadContext, uid: string, mode: "create" | "edit") {
  const read = await readForm(request);
  if (read.kind === "ERROR") {
    // The person's text comes back into the form (without any NUL) with the reason above it.
    const values = formDataToInput(read.salvaged ?? new FormData());
    return answerRefusal<EditorActionData>(read, { values, errors: {}, message: read.message, formKey: `refused-${Date.now()}` });
  }
  const form = read.form;
  const input = formDataToInput(form);
  const docId = mode === "edit" ? String(form.get("docId") ?? "") : null;
  const parsed = parseOpportunityForm(input);
  if (parsed.kind === "ERROR") return answerRefusal<EditorActionData>(parsed, { values: input, errors: parsed.fieldErrors });
  const known = allTags(await loadTagCatalogue(context.db));
  const result = docId !== null
    ? await editOpportunity(context.db, { uid }, docId, parsed.form, known)
    : await createOpportunity(context.db, { uid }, parsed.form, known);
  if (result.kind === "ERROR") return answerRefusal<EditorActionData>(result, { values: input, errors: result.fieldErrors ?? {}, message: result.message });
  return redirectWithToast(request, context.sessionSecret, `/app/opportunities/${result.id}`, {
    kind: "success",
    // A half-filled deadline was left out (SPEC §5): the toast says so.
    message: [docId ? "Your changes were saved." : "Your opportunity is live.", parsed.notice].filter(Boolean).join(" "),
  });
}
