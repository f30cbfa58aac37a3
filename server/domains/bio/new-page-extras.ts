import { presetById, THEME_FIELD_NAMES } from "#isomorphic/bio-theme";
import { ACCEPT_TIPS_FIELD, DEFAULT_NEW_PAGE_EXTRAS as DEFAULT_EXTRAS, type NewPageExtras } from "#isomorphic/new-page";
import type { Db } from "#server/platform/db/client";
import { saveBioTheme, themeFormValues } from "./theme";
import { readSupportSettings, saveSupportSettings, supportSettingsInput } from "./support-settings";
import type { BioPageForm } from "./form";
import { createBioPage } from "./pages";

/**
 * The extras as sent. A post without them (an older client, the API-like
 * posts of tests) keeps a new page's defaults: Sponsorgrid's theme, tips on.
 * A preset the picker does not offer can only be forged, and is read as none.
 */
export function formDataToNewPageExtras(form: FormData): NewPageExtras {
  const preset = form.get(THEME_FIELD_NAMES.preset);
  const tips = form.getAll(ACCEPT_TIPS_FIELD);
  return {
    preset: typeof preset === "string" && presetById(preset) ? preset : DEFAULT_EXTRAS.preset,
    acceptTips: tips.length === 0 ? DEFAULT_EXTRAS.acceptTips : tips.includes("on"),
  };
}

/**
 * Gives a page just created its chosen look and tips switch, through the
 * same domain writes the editor uses; what equals a new page's default is
 * not written again.
 */
export async function applyNewPageExtras(db: Db, owner: { uid: string }, pageId: string, extras: NewPageExtras): Promise<void> {
  const chosen = presetById(extras.preset);
  if (chosen && chosen.id !== DEFAULT_EXTRAS.preset) await saveBioTheme(db, owner, pageId, themeFormValues(chosen.theme));
  if (extras.acceptTips === DEFAULT_EXTRAS.acceptTips) return;
  const current = await readSupportSettings(db, owner, pageId);
  if (current.kind === "ERROR") return;
  await saveSupportSettings(db, owner, pageId, { ...supportSettingsInput(current.settings), acceptTips: extras.acceptTips });
}

/**
 * A new page and its chosen look and tips switch, together or not at all: a page never exists
 * with the default look and tips on because the second write failed.
 */
export async function createBioPageWithExtras(db: Db, owner: { uid: string }, form: BioPageForm, extras: NewPageExtras) {
  return db.transaction(async (tx) => {
    const created = await createBioPage(tx, owner, form);
    if (created.kind === "SUCCESS") await applyNewPageExtras(tx, owner, created.id, extras);
    return created;
  });
}
