import { useState } from "react";
import { Link } from "react-router";
import { useHydrated } from "#app/lib/use-hydrated";
import type { WallGoalFieldErrors } from "#server/domains/bio/wall-goal-settings";
import { FormNotice, secondaryButton, TextField } from "#page-kit/forms";
import { EDITOR_REMOVE_GOAL_INTENT, type WallGoalFormValues } from "./editor-values";

/** What the form shows: the saved settings, or what was typed when a save was refused. */

type Props = {
  values: WallGoalFormValues;
  errors: WallGoalFieldErrors;
  /** Whether a goal is saved now (the Remove button shows then). */
  hasGoal: boolean;
  /** "$120 of $500 raised · 24%", for a saved goal. */
  progressText: string | null;
  supportersHref: string;
  busy: boolean;
};

/**
 * The bio editor's "Supporter wall and goal": fields of the editor's one form,
 * saved with every other part by its Save. "Remove goal" is a submit button of
 * that form, so without JavaScript it saves the whole form with no goal; with
 * JavaScript it empties the goal's fields, and the page's Save saves that.
 */
export function WallAndGoalSettings({ values, errors, hasGoal, progressText, supportersHref, busy }: Props) {
  const hydrated = useHydrated();
  const [removing, setRemoving] = useState(false);
  const problems = Object.values(errors).filter(Boolean);
  return (
    <section aria-labelledby="wall-goal-heading" className="mt-12 rounded-2xl border border-primary/15 bg-white p-5 shadow-sm sm:p-6">
      <h2 id="wall-goal-heading" className="text-xl font-bold">
        Supporter wall and goal
      </h2>
      <div className="mt-4 space-y-6">
        {problems.length > 0 ? <FormNotice>Please correct the {problems.length === 1 ? "field" : "fields"} below: nothing was saved.</FormNotice> : null}
        <div>
          <label className="flex items-start gap-3 font-medium">
            <input type="checkbox" name="wallEnabled" value="on" defaultChecked={values.wallEnabled} aria-describedby="wall-hint" className="mt-1 h-5 w-5 flex-none accent-primary" />
            Show a supporter wall on my page
          </label>
          <p id="wall-hint" className="mt-1 pl-8 text-sm text-muted">
            Your 10 latest supporters with the name and message they gave. Supporters who asked to stay private show as &ldquo;A private supporter&rdquo;, refunded payments
            leave the wall, and you can hide anyone from <Link to={supportersHref}>your supporters list</Link>.
          </p>
        </div>
        <fieldset className="space-y-4">
          <legend className="font-semibold">Goal</legend>
          <p className="text-sm text-muted">
            A progress bar under your support button. It counts what supporters pay from the moment you set the goal; refunds come off.
          </p>
          {progressText ? (
            <p className="rounded-lg bg-secondary/40 px-3 py-2 text-sm" data-testid="goal-progress">
              So far: {progressText}
            </p>
          ) : null}
          <TextField label="Goal title" name="goalTitle" defaultValue={values.goalTitle} maxLength={100} error={errors.goalTitle} hint="Up to 100 characters, like “New camera”." />
          <TextField
            label="Target (USD)"
            name="goalTarget"
            defaultValue={values.goalTarget}
            inputMode="decimal"
            autoComplete="off"
            error={errors.goalTarget}
            hint="In dollars, like 500 or 499.99."
            className="max-w-xs"
          />
        </fieldset>
        {hasGoal ? (
          <div className="flex flex-wrap gap-3">
            <button
              type="submit"
              name="intent"
              value={EDITOR_REMOVE_GOAL_INTENT}
              className={secondaryButton}
              disabled={busy}
              onClick={(event) => {
                if (!hydrated) return;
                event.preventDefault();
                emptyGoalFields(event.currentTarget.form);
                setRemoving(true);
              }}
            >
              Remove goal
            </button>
            <p role="status" className="self-center text-sm text-muted">
              {removing ? "The goal comes off your page when you save." : ""}
            </p>
          </div>
        ) : null}
      </div>
    </section>
  );
}

/** Both goal fields blank is no goal; an input event tells the unsaved marker and the preview. */
function emptyGoalFields(form: HTMLFormElement | null) {
  for (const name of ["goalTitle", "goalTarget"]) {
    const field = form?.elements.namedItem(name);
    if (!(field instanceof HTMLInputElement)) continue;
    field.value = "";
    field.dispatchEvent(new Event("input", { bubbles: true }));
  }
}
