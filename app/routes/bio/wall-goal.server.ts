import type { AppLoadContext } from "react-router";
import { formatMoney } from "#isomorphic/format";
import { readWallGoalSettings } from "#server/domains/bio/wall-goal-settings";
import { refuseWith } from "#page-kit/respond.server";
import type { WallGoalFormValues } from "#app/components/bio/editor-values";

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
