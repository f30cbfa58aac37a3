import type { Db } from "#server/platform/db/client";
import { countEditorErrors } from "#isomorphic/bio-editor";
import { refusal, success, type DomainError, type Refusal, type Success } from "#server/platform/errors";
import { parseBioPageForm, type BioPageFieldErrors, type BioPageFormInput } from "./form";
import { editBioPage } from "./pages";
import { parseSupportSettings, saveSupportSettings, type SupportSettingsFieldErrors, type SupportSettingsInput } from "./support-settings";
import { parseThemeForm, saveBioTheme, type ThemeFieldErrors, type ThemeFormInput } from "./theme";
import { parseWallGoal, saveWallGoal, type WallGoalFieldErrors, type WallGoalInput } from "./wall-goal-settings";

/**
 * Every section of the bio editor as typed, sent together by its one Save. A section that is null
 * was not sent at all (a post of the page's fields alone, as before the one form): it keeps what is
 * stored.
 */
export type BioEditorInput = { page: BioPageFormInput; theme: ThemeFormInput | null; support: SupportSettingsInput | null; wallGoal: WallGoalInput | null };

/** Messages by section, then by field, each shown beside its own field. */
export type BioEditorFieldErrors = { page: BioPageFieldErrors; theme: ThemeFieldErrors; support: SupportSettingsFieldErrors; wallGoal: WallGoalFieldErrors };

export type BioEditorRefusal = Refusal<"invalid-argument", "INVALID_FIELDS", { sectionErrors: BioEditorFieldErrors }>;

function refused(sectionErrors: BioEditorFieldErrors): BioEditorRefusal {
  const count = countEditorErrors(sectionErrors);
  return refusal("invalid-argument", "INVALID_FIELDS", `${count === 1 ? "One field needs" : `${count} fields need`} a change: nothing was saved.`, { sectionErrors });
}

const NO_ERRORS: BioEditorFieldErrors = { page: {}, theme: {}, support: {}, wallGoal: {} };

/** Thrown inside the transaction to undo what an earlier section wrote. */
class Undo extends Error {
  constructor(readonly answer: BioEditorRefusal | DomainError) {
    super("bio editor save undone");
  }
}

/**
 * The bio editor's one Save: the page's fields, its look, its support block and its wall and goal,
 * all written or none. Every section is checked first, so one round shows every message beside its
 * field; then the four writes run in one transaction, and a refusal found by the database (a
 * sponsorship not the owner's, the permanent ending) undoes the others. Someone else's page is
 * "not found", as a missing one.
 */
export async function saveBioEditor(db: Db, owner: { uid: string }, pageId: string, input: BioEditorInput): Promise<Success<{ customEnding: string }> | BioEditorRefusal | DomainError> {
  const page = parseBioPageForm(input.page);
  const theme = input.theme && parseThemeForm(input.theme);
  const support = input.support && parseSupportSettings(input.support);
  const wallGoal = input.wallGoal && parseWallGoal(input.wallGoal);
  const errors: BioEditorFieldErrors = {
    page: page.kind === "ERROR" ? page.fieldErrors : {},
    theme: theme?.kind === "ERROR" ? theme.fieldErrors : {},
    support: support?.kind === "ERROR" ? support.fieldErrors : {},
    wallGoal: wallGoal?.kind === "ERROR" ? wallGoal.fieldErrors : {},
  };
  if (page.kind === "ERROR" || countEditorErrors(errors) > 0) return refused(errors);
  try {
    return await db.transaction(async (tx) => {
      const edited = await editBioPage(tx, owner, pageId, page.form);
      if (edited.kind === "ERROR") throw new Undo(edited.fieldErrors ? refused({ ...NO_ERRORS, page: edited.fieldErrors }) : edited);
      for (const written of [
        input.theme && (await saveBioTheme(tx, owner, pageId, input.theme)),
        input.support && (await saveSupportSettings(tx, owner, pageId, input.support)),
        input.wallGoal && (await saveWallGoal(tx, owner, pageId, input.wallGoal)),
      ]) {
        if (written?.kind === "ERROR") throw new Undo(written);
      }
      return success({ customEnding: edited.customEnding });
    });
  } catch (error) {
    if (error instanceof Undo) return error.answer;
    throw error;
  }
}
