import type { AppLoadContext } from "react-router";
import type { SessionUser } from "#server/domains/auth/session";
import { formDataToInput, type FieldErrors, type OpportunityFormInput } from "#server/domains/opportunities/form";
import { changeOpportunity, postOpportunity } from "#server/features/operations/opportunities/write";
import { pageCaller, runForPage } from "#app/lib/operation-door.server";
import { readForm } from "#page-kit/form.server";
import { answerRefusal } from "#page-kit/respond.server";
import { redirectWithToast } from "#server/platform/http/toast-cookie";
import { ownPostRefusal } from "./own-post.server";

export type EditorActionData = {
  values: OpportunityFormInput;
  errors: FieldErrors;
  message?: string;
  /** New on every refused form: the fields mount afresh with the salvaged text (no NUL) in them. */
  formKey?: string;
};

/**
 * Shared by the new and edit pages: the form's fields go to the post or change operation
 * (server/features/operations/opportunities/write.ts), then on to the detail page. Editing
 * takes the post's id from the form's `docId` field. A refusal comes back beside the person's input.
 */
export async function saveOpportunity(request: Request, context: AppLoadContext, user: SessionUser, mode: "create" | "edit") {
  const read = await readForm(request);
  if (read.kind === "ERROR") {
    // The person's text comes back into the form (without any NUL) with the reason above it.
    const values = formDataToInput(read.salvaged ?? new FormData());
    return answerRefusal<EditorActionData>(read, { values, errors: {}, message: read.message, formKey: `refused-${Date.now()}` });
  }
  const form = read.form;
  const input = formDataToInput(form);
  const caller = pageCaller(user);
  // not-found is answered beside the form (the pages' words for it), not as the 404 page.
  const result =
    mode === "edit"
      ? await runForPage(changeOpportunity, { caller, input: { opportunityId: String(form.get("docId") ?? ""), changes: input }, context, notFound: "answer" })
      : await runForPage(postOpportunity, { caller, input: { fields: input }, context, notFound: "answer" });
  if (result.kind === "ERROR") {
    if (result.code === "not-found") {
      const refused = ownPostRefusal(result);
      return answerRefusal<EditorActionData>(refused, { values: input, errors: {}, message: refused.message });
    }
    // The form's own field messages stand beside their fields, with no message above them.
    if ("reason" in result && result.reason === "INVALID_FIELDS") return answerRefusal<EditorActionData>(result, { values: input, errors: result.fieldErrors });
    return answerRefusal<EditorActionData>(result, { values: input, errors: ("fieldErrors" in result ? result.fieldErrors : undefined) ?? {}, message: result.message });
  }
  return redirectWithToast(request, context.sessionSecret, `/app/opportunities/${result.id}`, {
    kind: "success",
    // A half-filled deadline was left out (SPEC §5): the toast says so.
    message: [mode === "edit" ? "Your changes were saved." : "Your opportunity is live.", result.notice].filter(Boolean).join(" "),
  });
}
