import type { AppLoadContext } from "react-router";
import { formDataToThemeInput, saveBioTheme, type ThemeFieldErrors, type ThemeFormInput } from "#server/domains/bio/theme";
import { answerRefusal, refuseWith } from "#page-kit/respond.server";
import { redirectWithToast } from "#server/platform/http/toast-cookie";

/** The theme picker again, with what was chosen and why it was refused. */
export type ThemeActionData = { theme: { values: ThemeFormInput; errors: ThemeFieldErrors; formKey: string } };

/**
 * The theme picker's save (intent `theme`) on the edit page: the whole theme
 * or nothing. Saved, it comes back to the same page, so the preview frame
 * loads again and shows the page in its new look, with or without JavaScript.
 */
export async function bioThemeAction(request: Request, context: AppLoadContext, uid: string, pageId: string, form: FormData) {
  const values = formDataToThemeInput(form);
  const result = await saveBioTheme(context.db, { uid }, pageId, values);
  if (result.kind === "ERROR") {
    if (result.code === "not-found") refuseWith(result);
    return answerRefusal(result, { theme: { values, errors: result.fieldErrors, formKey: crypto.randomUUID() } } satisfies ThemeActionData);
  }
  const here = new URL(request.url);
  return redirectWithToast(request, context.sessionSecret, `${here.pathname}${here.search}#look`, { kind: "success", message: "Your page's new look is saved." });
}
