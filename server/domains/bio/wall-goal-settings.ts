import { and, eq } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { bioPages } from "#server/platform/db/schema";
import { domainError, fieldRefusal, success, type DomainError, type FieldRefusal, type Success } from "#server/platform/errors";
import { parseAmountInput } from "#isomorphic/amount-input";
import { formatMoney } from "#isomorphic/format";
import { isBioPageId } from "./endings";
import { goalProgress, goalRaised, MAX_GOAL_TARGET, MAX_GOAL_TITLE_LENGTH, PAGE_CURRENCY, type GoalProgress } from "./goal";

/** What the editor's "Supporter wall and goal" form sends, as typed. */
export type WallGoalInput = { wallEnabled: boolean; goalTitle: string; goalTarget: string; removeGoal: boolean };
export type WallGoalFieldErrors = Partial<Record<"goalTitle" | "goalTarget", string>>;

/** The settings as the editor shows them, with the goal's progress so far. */
export type WallGoalSettings = { wallEnabled: boolean; goalTitle: string; goalTarget: number | null; progress: GoalProgress | null };

type Owner = { uid: string };
const NOT_FOUND = domainError("not-found", "This page doesn't exist or was deleted.");

/** The owner's page's wall and goal settings; someone else's page is "not found". */
export async function readWallGoalSettings(db: Db, owner: Owner, pageId: string): Promise<Success<{ settings: WallGoalSettings }> | DomainError<"not-found">> {
  if (!isBioPageId(pageId)) return NOT_FOUND;
  const [page] = await db
    .select({ wallEnabled: bioPages.wallEnabled, goalTitle: bioPages.goalTitle, goalTarget: bioPages.goalTarget, goalStartedAt: bioPages.goalStartedAt })
    .from(bioPages)
    .where(and(eq(bioPages.id, pageId), eq(bioPages.uid, owner.uid)));
  if (!page) return NOT_FOUND;
  const progress = page.goalTarget !== null ? goalProgress({ title: page.goalTitle ?? "", target: page.goalTarget }, await goalRaised(db, pageId, page.goalStartedAt)) : null;
  return success({ settings: { wallEnabled: page.wallEnabled, goalTitle: page.goalTitle ?? "", goalTarget: page.goalTarget, progress } });
}

/**
 * Checks the form: a goal is a title (at most 100 characters) and a target in
 * the page's currency above zero and at most MAX_GOAL_TARGET; both blank, or
 * "Remove goal", is no goal. Every problem is reported at once.
 */
export function parseWallGoal(input: WallGoalInput): Success<{ wallEnabled: boolean; goal: { title: string; target: number } | null }> | FieldRefusal<WallGoalFieldErrors> {
  if (input.removeGoal) return success({ wallEnabled: input.wallEnabled, goal: null });
  const title = input.goalTitle.replace(/\s+/g, " ").trim();
  const targetText = input.goalTarget.trim();
  if (!title && !targetText) return success({ wallEnabled: input.wallEnabled, goal: null });
  const errors: WallGoalFieldErrors = {};
  if (!title) errors.goalTitle = "Give your goal a title, like “New camera”";
  else if ([...title].length > MAX_GOAL_TITLE_LENGTH) errors.goalTitle = `Keep the title to ${MAX_GOAL_TITLE_LENGTH} characters or fewer`;
  const target = targetText ? parseAmountInput(targetText) : null;
  if (!targetText) errors.goalTarget = "Enter the amount you want to raise";
  else if (target === null) errors.goalTarget = "Enter an amount in dollars, like 500 or 499.99";
  else if (target <= 0) errors.goalTarget = "The target must be more than $0";
  else if (target > MAX_GOAL_TARGET) errors.goalTarget = `The target can be at most ${formatMoney(MAX_GOAL_TARGET, PAGE_CURRENCY)}`;
  if (Object.keys(errors).length > 0 || target === null) return fieldRefusal(errors);
  return success({ wallEnabled: input.wallEnabled, goal: { title, target } });
}

/**
 * Saves the owner's wall switch and goal. A goal set where there was none
 * starts counting now (goal_started_at); changing the title or target of the
 * goal keeps its start, so what was raised stays on the bar; removing it
 * forgets the start, and the next goal starts at zero again.
 */
export async function saveWallGoal(
  db: Db,
  owner: Owner,
  pageId: string,
  input: WallGoalInput,
  now = new Date(),
): Promise<Success<{ wallEnabled: boolean; hasGoal: boolean }> | FieldRefusal<WallGoalFieldErrors> | DomainError<"not-found">> {
  if (!isBioPageId(pageId)) return NOT_FOUND;
  const parsed = parseWallGoal(input);
  if (parsed.kind === "ERROR") return parsed;
  const { wallEnabled, goal } = parsed;
  const saved = await db.transaction(async (tx) => {
    const [page] = await tx
      .select({ goalStartedAt: bioPages.goalStartedAt, goalTarget: bioPages.goalTarget })
      .from(bioPages)
      .where(and(eq(bioPages.id, pageId), eq(bioPages.uid, owner.uid)))
      .for("update");
    if (!page) return false;
    const startedAt = goal ? (page.goalTarget !== null ? page.goalStartedAt : now) : null;
    await tx
      .update(bioPages)
      .set({ wallEnabled, goalTitle: goal?.title ?? null, goalTarget: goal?.target ?? null, goalStartedAt: startedAt, updatedAt: now })
      .where(eq(bioPages.id, pageId));
    return true;
  });
  if (!saved) return NOT_FOUND;
  return success({ wallEnabled, hasGoal: goal !== null });
}
