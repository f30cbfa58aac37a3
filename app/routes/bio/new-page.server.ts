import { data, type AppLoadContext } from "react-router";
import { formDataToBioInput, linkRowsAfter, parseBioPageForm, type BioPageFieldErrors } from "#server/domains/bio/form";
import { ENDING_TAKEN_MESSAGE } from "#server/domains/bio/endings";
import { isEndingTaken } from "#server/domains/bio/pages";
import { createBioPageWithExtras, formDataToNewPageExtras } from "#server/domains/bio/new-page-extras";
import type { NewPageExtras } from "#isomorphic/new-page";
import type { SessionUser } from "#server/domains/auth/session";
import type { DomainError } from "#server/platform/errors";
import { readForm } from "#page-kit/form.server";
import { formText } from "#app/lib/identity.server";
import { answerRefusal } from "#page-kit/respond.server";
import { redirectWithToast } from "#server/platform/http/toast-cookie";
import { DASHBOARD_PATH, type BioEditorActionData } from "./editor.server";

export type NewPageActionData = BioEditorActionData & { extras: NewPageExtras };

function answer(body: Omit<NewPageActionData, "formKey">, refused?: Pick<DomainError, "code">) {
  const payload: NewPageActionData = { ...body, formKey: crypto.randomUUID() };
  return refused ? answerRefusal(refused, payload) : data(payload);
}

/**
 * The new-page form's action: the page's fields as the editor's create
 * (the link-row buttons only re-render; nothing is written unless every
 * field passes), then the look and tips switch chosen beside them, through
 * the editor's own domain writes, and back to the list with its checklist.
 * The extras go back with every re-render, so a choice survives a refusal.
 */
export async function newPageAction(request: Request, context: AppLoadContext, user: SessionUser) {
  const read = await readForm(request);
  if (read.kind === "ERROR") {
    const salvaged = read.salvaged ?? new FormData();
    return answer({ values: formDataToBioInput(salvaged), extras: formDataToNewPageExtras(salvaged), errors: {}, message: read.message }, read);
  }
  const input = formDataToBioInput(read.form);
  const extras = formDataToNewPageExtras(read.form);

  const links = linkRowsAfter(formText(read.form, "intent"), input.links);
  if (links) return answer({ values: { ...input, links }, extras, errors: {} });

  const parsed = parseBioPageForm(input);
  if (parsed.kind === "ERROR") {
    const errors: BioPageFieldErrors = { ...parsed.fieldErrors };
    // The ending is checked against the others now too, so one round shows every message.
    if (!errors.customEnding && (await isEndingTaken(context.db, input.customEnding.trim()))) errors.customEnding = ENDING_TAKEN_MESSAGE;
    return answer({ values: input, extras, errors }, parsed);
  }
  const owner = { uid: user.id };
  const created = await createBioPageWithExtras(context.db, owner, parsed.form, extras);
  if (created.kind === "ERROR") {
    const errors = created.fieldErrors ?? {};
    return answer({ values: input, extras, errors, message: Object.keys(errors).length > 0 ? undefined : created.message }, created);
  }
  const address = `${new URL(context.config.BIO_ORIGIN).host}/${created.customEnding}`;
  return redirectWithToast(request, context.sessionSecret, DASHBOARD_PATH, { kind: "success", message: `Your page is live at ${address}.` });
}
