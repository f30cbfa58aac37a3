import { Link } from "react-router";
import { primaryButton } from "#page-kit/forms";

type Props = {
  /** The form has edits not saved yet (only known with JavaScript). */
  dirty: boolean;
  busy: boolean;
  /** Why the last save was refused, with how many fields need a change. */
  refusal?: string;
};

/**
 * The editor's one Save, kept in view at the bottom of the screen while the form scrolls, with
 * the "Unsaved changes" marker beside it (said politely to screen readers as it appears) and why
 * the last save was refused, if it was.
 */
export function EditorSaveBar({ dirty, busy, refusal }: Props) {
  return (
    <div className="sticky bottom-0 z-20 -mx-4 mt-10 border-t border-ink/15 bg-white/95 px-4 py-3 backdrop-blur sm:mx-0 sm:rounded-t-2xl sm:border-x">
      {refusal ? <p className="mb-2 text-sm font-semibold text-red-700">{refusal}</p> : null}
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <button type="submit" name="intent" value="save" className={primaryButton} disabled={busy}>
          {busy ? "Saving..." : "Save changes"}
        </button>
        <Link to="/app/account/bizbio" className="font-semibold">
          Cancel
        </Link>
        <p role="status" aria-live="polite" className="ml-auto flex items-center gap-2 text-sm font-semibold" data-testid="unsaved-marker">
          {dirty ? (
            <>
              <span aria-hidden="true" className="inline-block h-2.5 w-2.5 rounded-full bg-accent" />
              Unsaved changes
            </>
          ) : null}
        </p>
      </div>
    </div>
  );
}
