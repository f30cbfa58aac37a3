import { data, type AppLoadContext } from "react-router";
import { LINK_LABELS, LINK_TYPES } from "#server/domains/bio/links";
import { formDataToBioInput, linkRowsAfter, MAX_LINKS, MAX_SPONSORSHIPS, parseBioPageForm, type BioPageFieldErrors, type BioPageFormInput } from "#server/domains/bio/form";
import { ENDING_TAKEN_MESSAGE } from "#server/domains/bio/endings";
import { createBioPage, isEndingTaken, MAX_PAGES_PER_OWNER } from "#server/domains/bio/pages";
import { sponsorshipChoices, type SponsorshipChoices } from "#server/domains/bio/sponsorship-options";
import type { SessionUser } from "#server/domains/auth/session";
import type { DomainError } from "#server/platform/errors";
import { readBioPage } from "#server/features/operations/bio-pages/read";
import { updateBioPage } from "#server/features/operations/bio-pages/update";
import { pageCaller, runForPage } from "#app/lib/operation-door.server";
import { readForm } from "#page-kit/form.server";
import { formText } from "#app/lib/identity.server";
import { answerRefusal, refuseWith } from "#page-kit/respond.server";
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
 * The bio page form's action, for new (`pageId` null) and edit. Two kinds of
 * submit button share the form: "Add link", "Remove", "Move up" and "Move
 * down" (server/domains/bio/form.ts `linkRowsAfter`) only re-render the form with
 * what was typed, so the link rows work without JavaScript; anything else
 * saves. Nothing is written unless every field passes. `intents` answers the
 * editor's other forms (each with its own submit `intent`), read once and
 * only for the owner. An edit is the updateBioPage operation, as the API's
 * (server/features/operations/bio-pages/update.ts): ownership, a verified
 * address and the editor's rules are its; the buttons, the other forms, the
 * values typed shown back and the toast are this page's. A new page is
 * reached from this form only, so it stays a plain domain call here.
 */
export async function bioEditorAction<Answer = never>(
  request: Request,
  context: AppLoadContext,
  user: SessionUser,
  pageId: string | null,
  intents: Record<string, (form: FormData) => Promise<Answer>> = {},
) {
  const caller = pageCaller(user);
  if (pageId !== null) {
    // Someone else's page (or none) is "not found" before anything is read or re-rendered, in the domain's words.
    const own = await runForPage(readBioPage, { caller, input: { pageId }, context, notFound: "answer" });
    if (own.kind === "ERROR") refuseWith(own);
  }
  const read = await readForm(request);
  if (read.kind === "ERROR") return answer({ values: formDataToBioInput(read.salvaged ?? new FormData()), errors: {}, message: read.message }, read);
  const intent = formText(read.form, "intent");
  // A part of the editor with a form of its own (Support, …) is answered by its own handler.
  const own = Object.hasOwn(intents, intent) ? intents[intent] : undefined;
  if (own) return own(read.form);
  const input = formDataToBioInput(read.form);

  const links = linkRowsAfter(intent, input.links);
  if (links) return answer({ values: { ...input, links }, errors: {} });

  const address = (ending: string) => `${new URL(context.config.BIO_ORIGIN).host}/${ending}`;
  if (pageId !== null) {
    // The whole form is the change: every field it shows is sent, so nothing stored shows through.
    const saved = await runForPage(updateBioPage, { caller, input: { pageId, changes: input }, context, notFound: "answer" });
    if (saved.kind === "ERROR") return refusedAnswer(input, saved);
    return redirectWithToast(request, context.sessionSecret, DASHBOARD_PATH, { kind: "success", message: `Your changes to ${address(saved.page.customEnding)} were saved.` });
  }

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
  return redirectWithToast(request, context.sessionSecret, DASHBOARD_PATH, { kind: "success", message: `Your page is live at ${address(created.customEnding)}.` });
}

export const PAGE_LIMIT_MESSAGE = `You have ${MAX_PAGES_PER_OWNER} pages, the most one person can have. Delete one to make room for a new one.`;
