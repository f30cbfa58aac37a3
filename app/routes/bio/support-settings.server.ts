import type { AppLoadContext } from "react-router";
import { saveSupportSettings, type SupportSettingsInput } from "#server/domains/bio/support-settings";
import { safeRedirectPath } from "#server/platform/http/redirects";
import { redirectWithToast } from "#server/platform/http/toast-cookie";
import { formText } from "#app/lib/identity.server";
import { answerRefusal, refuseWith } from "#page-kit/respond.server";
import { PRESET_FIELDS, type SupportSettingsActionData } from "#app/components/bio/SupportSettings";

/** The Support form as typed: an unticked switch sends nothing, which is "off". */
function supportInput(form: FormData): SupportSettingsInput {
  return {
    acceptTips: formText(form, "acceptTips") === "on",
    presets: PRESET_FIELDS.map((name) => formText(form, name)),
    tipMinimum: formText(form, "tipMinimum"),
    thankYouMessage: formText(form, "thankYouMessage"),
  };
}

/**
 * The editor's Support form (intent `support`): saved by one domain call for
 * the owner's page only, then back to the same editor with a toast; refused
 * fields come back beside what was typed, and nothing is written.
 */
export async function supportSettingsAction(request: Request, context: AppLoadContext, uid: string, pageId: string, form: FormData) {
  const input = supportInput(form);
  const result = await saveSupportSettings(context.db, { uid }, pageId, input);
  if (result.kind === "ERROR") {
    if (!("fieldErrors" in result)) refuseWith(result);
    return answerRefusal<SupportSettingsActionData>(result, { support: { values: input, errors: result.fieldErrors } });
  }
  const here = new URL(request.url);
  return redirectWithToast(request, context.sessionSecret, safeRedirectPath(`${here.pathname}${here.search}`), {
    kind: "success",
    message: result.settings.acceptTips ? "Your support settings were saved." : "Saved. Tips are off: your page no longer shows the support block.",
  });
}
