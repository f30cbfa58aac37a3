import { data, type AppLoadContext } from "react-router";
import { LINK_LABELS, LINK_TYPES } from "#server/domains/bio/links";
import { formDataToBioInput, linkRowsAfter, MAX_LINKS, MAX_SPONSORSHIPS, parseBioPageForm, type BioPageFieldErrors, type BioPageFormInput } from "#server/domains/bio/form";
import { ENDING_TAKEN_MESSAGE } from "#server/domains/bio/endings";
import { createBioPage, isEndingTaken, MAX_PAGES_PER_OWNER } from "#server/domains/bio/pages";
import { sponsorshipChoices, type SponsorshipChoices } from "#server/domains/bio/sponsorship-options";
import type { SessionUser } from "#server/domains/auth/session";
import type { DomainError } from "#server/platform/errors";
import { readForm } from "#page-kit/form.server";
import { formText } from "#app/lib/identity.server";
import { answerRefusal } from "#page-kit/respond.server";
import { redirectWithToast } from "#server/platform/http/toast-cookie";
import type { BioFormOptions } from "#app/components/bio/BioPageForm";

export const DASHBOARD_PATH = "/app/account/bizbio";

export type BioEditorActionData = {
  values: BioPageFormInput;
  errors: BioPageFieldErrors;
  /** Above the form: why the whole submission was refused (a garbled body, the page limit, …). */
  message?: string;
  /** New on every answer: the fields mount afresh with the submitted rows in them. */
  formKey: string;
};

/** What both form pages need besides the page itself: the picker's posts, the bio host, the form's choices. */
export async function editorContext(context: AppLoadContext, uid: string): Promise<{ choices: SponsorshipChoices; bioOrigin: string; options: BioFormOptions }> {
  const options = { linkTypes: LINK_TYPES.map((value) => ({ value, label: LINK_LABELS[value] })), maxLinks: MAX_LINKS, maxSponsorships: MAX_SPONSORSHIPS };
  return { choices: await sponsorshipChoices(context.db, uid), bioOrigin: context.config.BIO_ORIGIN, options };
}

/** The form again, with what was typed; with a refusal, sent with the status its code maps to. */
function answer(body: Omit<BioEditorActionData, "formKey">, refused?: Pick<DomainError, "code">) {
  const payload: BioEditorActionData = { ...body, formKey: crypto.randomUUID() };
  return refused ? answerRefusal(refused, payload) : data(payload);
}

/** The form again after a refusal: a message that belongs to a field shows beside it; the rest (the page limit) above the form. */
function refusedAnswer(values: BioPageFormInput, refused: DomainError & { fieldErrors?: BioPageFieldErrors }) {
  const errors = refused.fieldErrors ?? {};
  const message = Object.keys(errors).length > 0 ? undefined : refused.message;
  return answer({ values, errors, message }, refused);
}

/**
 * The new bio page form's action. Two kinds of submit button share the form: "Add link",
 * "Remove", "Move up" and "Move down" (server/domains/bio/form.ts `linkRowsAfter`) only re-render
 * the form with what was typed, so the link rows work without JavaScript; anything else creates
 * the page. Nothing is written unless every field passes. (`pageId` is always null: editing an
 * existing page is the edit page's one form, edit-action.server.ts.)
 */
export async function bioEditorAction(request: Request, context: AppLoadContext, user: SessionUser, _pageId: null) {
  const read = await readForm(request);
  if (read.kind === "ERROR") return answer({ values: formDataToBioInput(read.salvaged ?? new FormData()), errors: {}, message: read.message }, read);
  const intent = formText(read.form, "intent");
  const input = formDataToBioInput(read.form);

  const links = linkRowsAfter(intent, input.links);
  if (links) return answer({ values: { ...input, links }, errors: {} });

  const parsed = parseBioPageForm(input);
  if (parsed.kind === "ERROR") {
    const errors = { ...parsed.fieldErrors };
    // A new page's ending is checked against the others now too, so one round shows every message.
    const ending = input.customEnding.trim();
    if (!errors.customEnding && (await isEndingTaken(context.db, ending))) errors.customEnding = ENDING_TAKEN_MESSAGE;
    return answer({ values: input, errors }, parsed);
  }
  const created = await createBioPage(context.db, { uid: user.id }, parsed.form);
  if (created.kind === "ERROR") return refusedAnswer(input, created);
  const address = `${new URL(context.config.BIO_ORIGIN).host}/${created.customEnding}`;
  return redirectWithToast(request, context.sessionSecret, DASHBOARD_PATH, { kind: "success", message: `Your page is live at ${address}.` });
}

export const PAGE_LIMIT_MESSAGE = `You have ${MAX_PAGES_PER_OWNER} pages, the most one person can have. Delete one to make room for a new one.`;
