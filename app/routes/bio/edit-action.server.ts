import { data, type AppLoadContext } from "react-router";
import type { SessionUser } from "#server/domains/auth/session";
import type { BioEditorFieldErrors, BioEditorInput } from "#server/domains/bio/editor-save";
import { formDataToBioInput, linkRowsAfter } from "#server/domains/bio/form";
import { formDataToThemeInput } from "#server/domains/bio/theme";
import { THEME_FIELD_NAMES } from "#isomorphic/bio-theme";
import { readBioPage } from "#server/features/operations/bio-pages/read";
import { saveBioPageEditor } from "#server/features/operations/bio-pages/save-editor";
import { redirectWithToast } from "#server/platform/http/toast-cookie";
import { pageCaller, runForPage } from "#app/lib/operation-door.server";
import { formText } from "#app/lib/identity.server";
import { readForm } from "#page-kit/form.server";
import { answerRefusal, refuseWith } from "#page-kit/respond.server";
import { EDITOR_REMOVE_GOAL_INTENT, type EditorAnswer, type EditorValues } from "#app/components/bio/editor-values";
import { PRESET_FIELDS } from "#app/components/bio/SupportSettings";
import { PACKAGE_INTENTS } from "#app/components/bio/WorkWithMe";
import { DASHBOARD_PATH } from "./editor.server";
import { packagesAction } from "./packages.server";

const NO_ERRORS: BioEditorFieldErrors = { page: {}, theme: {}, support: {}, wallGoal: {} };

/** Every section as typed: an unticked switch sends nothing, which is "off". */
function editorValuesOf(form: FormData): EditorValues {
  return {
    page: formDataToBioInput(form),
    theme: formDataToThemeInput(form),
    support: {
      acceptTips: formText(form, "acceptTips") === "on",
      presets: PRESET_FIELDS.map((name) => formText(form, name)),
      tipMinimum: formText(form, "tipMinimum"),
      thankYouMessage: formText(form, "thankYouMessage"),
    },
    wallGoal: { wallEnabled: formText(form, "wallEnabled") === "on", goalTitle: formText(form, "goalTitle"), goalTarget: formText(form, "goalTarget") },
  };
}

/** The editor again with what was typed (and why it was refused); a new key mounts the fields afresh with it. */
function answer(values: EditorValues, errors: BioEditorFieldErrors, message: string | undefined, refused: boolean) {
  const payload: EditorAnswer = { editor: { values, errors, message, refused, formKey: crypto.randomUUID() } };
  return payload;
}

/**
 * The Edit bio page's form: one form for the page's fields, look, support block and wall and goal,
 * so no part's button can drop another part's edits. The link rows' own buttons ("Add link",
 * "Remove", "Move up", "Move down", server/domains/bio/form.ts `linkRowsAfter`) only draw the form
 * again with every section as typed, so they work without JavaScript; "Remove goal" saves with the
 * goal taken off; anything else is Save: the saveBioPageEditor operation writes every section or
 * none, then back to the business-bio list with a toast (SPEC §2.5). A refusal keeps every typed
 * value, each message beside its field. The packages' own forms post here too, each answered by
 * its own handler (packages.server.ts).
 */
export async function bioEditAction(request: Request, context: AppLoadContext, user: SessionUser, pageId: string) {
  const caller = pageCaller(user);
  // Someone else's page (or none) is "not found" before anything is read or drawn again, in the domain's words.
  const own = await runForPage(readBioPage, { caller, input: { pageId }, context, notFound: "answer" });
  if (own.kind === "ERROR") refuseWith(own);
  const read = await readForm(request);
  // The packages are a list of their own, each package saved by its own form.
  if (read.kind === "SUCCESS" && (PACKAGE_INTENTS as readonly string[]).includes(formText(read.form, "intent"))) {
    return packagesAction(request, context, user.id, pageId, read.form);
  }
  if (read.kind === "ERROR") return answerRefusal(read, answer(editorValuesOf(read.salvaged ?? new FormData()), NO_ERRORS, read.message, true));
  const intent = formText(read.form, "intent");
  const values = editorValuesOf(read.form);

  const links = linkRowsAfter(intent, values.page.links);
  // Drawn again, not saved: what was typed stays unsaved.
  if (links) return data(answer({ ...values, page: { ...values.page, links } }, NO_ERRORS, undefined, true));

  // A section none of whose fields were posted keeps what is stored (a post of the page's fields alone).
  const sent = (...names: string[]) => names.some((name) => read.form.has(name));
  const input: BioEditorInput = {
    page: values.page,
    theme: sent(THEME_FIELD_NAMES.preset) ? values.theme : null,
    support: sent("tipMinimum", ...PRESET_FIELDS) ? values.support : null,
    wallGoal: sent("goalTitle", "goalTarget") || intent === EDITOR_REMOVE_GOAL_INTENT ? { ...values.wallGoal, removeGoal: intent === EDITOR_REMOVE_GOAL_INTENT } : null,
  };
  const saved = await runForPage(saveBioPageEditor, { caller, input: { pageId, ...input }, context, notFound: "answer" });
  if (saved.kind === "ERROR") {
    if (saved.code === "not-found") refuseWith(saved);
    const errors = "sectionErrors" in saved ? saved.sectionErrors : NO_ERRORS;
    return answerRefusal(saved, answer(values, errors, "sectionErrors" in saved ? undefined : saved.message, true));
  }
  const address = `${new URL(context.config.BIO_ORIGIN).host}/${saved.customEnding}`;
  // Tips switched off take the support block off the page: said, so it is not a surprise.
  const tipsOff = input.support && !input.support.acceptTips ? " Tips are off: your page doesn't show the support block." : "";
  return redirectWithToast(request, context.sessionSecret, DASHBOARD_PATH, { kind: "success", message: `Your changes to ${address} were saved.${tipsOff}` });
}
