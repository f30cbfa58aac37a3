import { WALL_GOAL_INTENTS } from "#app/components/bio/WallAndGoalSettings";
import type { AppLoadContext } from "react-router";
import { formatMoney } from "#isomorphic/format";
import { readWallGoalSettings, saveWallGoal, type WallGoalFieldErrors } from "#server/domains/bio/wall-goal-settings";
import { answerRefusal, refuseWith } from "#page-kit/respond.server";
import { redirectWithToast } from "#server/platform/http/toast-cookie";
import { formText } from "#app/lib/identity.server";
import type { WallGoalFormValues } from "#app/components/bio/WallAndGoalSettings";


/** Dollars as the target field shows them again: 50000 → "500", 49999 → "499.99". */
function targetText(target: number | null): string {
  if (target === null) return "";
  return target % 100 === 0 ? String(target / 100) : (target / 100).toFixed(2);
}

export type WallGoalView = { values: WallGoalFormValues; hasGoal: boolean; progressText: string | null };

/** What the editor's wall and goal form shows for the owner's page (the loader's part). */
export async function wallGoalView(context: AppLoadContext, uid: string, pageId: string): Promise<WallGoalView> {
  const result = await readWallGoalSettings(context.db, { uid }, pageId);
  if (result.kind === "ERROR") refuseWith(result);
  const { settings } = result;
  const progress = settings.progress;
  return {
    values: { wallEnabled: settings.wallEnabled, goalTitle: settings.goalTitle, goalTarget: targetText(settings.goalTarget) },
    hasGoal: progress !== null,
    progressText: progress ? `${formatMoney(progress.raised, progress.currency)} of ${formatMoney(progress.target, progress.currency)} raised · ${progress.percent}%` : null,
  };
}

export type WallGoalActionData = { wallGoal: { values: WallGoalFormValues; errors: WallGoalFieldErrors; formKey: string } };

/** Saves the wall and goal form; a refused field comes back beside what was typed. */
export async function wallGoalAction(request: Request, context: AppLoadContext, uid: string, pageId: string, form: FormData) {
  const values = { wallEnabled: formText(form, "wallEnabled") === "on", goalTitle: formText(form, "goalTitle"), goalTarget: formText(form, "goalTarget") };
  const removeGoal = formText(form, "intent") === WALL_GOAL_INTENTS[1];
  const result = await saveWallGoal(context.db, { uid }, pageId, { ...values, removeGoal });
  if (result.kind === "ERROR") {
    if (result.code === "not-found") refuseWith(result);
    const payload: WallGoalActionData = { wallGoal: { values, errors: result.fieldErrors, formKey: crypto.randomUUID() } };
    return answerRefusal(result, payload);
  }
  const message = removeGoal ? "Your goal was removed." : `Saved: the supporter wall is ${result.wallEnabled ? "on" : "off"}${result.hasGoal ? " and your goal is on your page" : ""}.`;
  const url = new URL(request.url);
  return redirectWithToast(request, context.sessionSecret, `${url.pathname}${url.search}`, { kind: "success", message });
}
