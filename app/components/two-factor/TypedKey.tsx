import { Fragment, useState } from "react";
import { keyGroups } from "#isomorphic/key-groups";
import { useHydrated } from "#app/lib/use-hydrated";
import { secondaryButton } from "#page-kit/forms";

/**
 * The authenticator key, for typing in by hand: shown in groups of four. The gaps are margins,
 * not spaces, so selecting the key and copying it copies it whole; a screen reader hears the
 * groups one by one (the hidden line with spaces); and the Copy button, where the clipboard can
 * be used, copies the unbroken key.
 */
export function TypedKey({ secret, labelId }: { secret: string; labelId: string }) {
  const hydrated = useHydrated();
  const [said, setSaid] = useState<"copied" | "failed" | null>(null);
  const groups = keyGroups(secret);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setSaid("copied");
    } catch {
      setSaid("failed");
    }
  };
  return (
    <div role="group" aria-labelledby={labelId} className="mt-1 flex flex-wrap items-center gap-x-4 gap-y-2">
      <p className="font-mono text-lg">
        <span className="sr-only select-none">{groups.join(" ")}</span>
        {/* Inline groups with a margin and a break chance (<wbr>) between: no character a copy would take along. */}
        <span aria-hidden="true" data-testid="totp-secret">
          {groups.map((group, index) => (
            <Fragment key={index}>
              <span data-key-group="" className="mr-3">
                {group}
              </span>
              <wbr />
            </Fragment>
          ))}
        </span>
      </p>
      {hydrated ? (
        <button type="button" onClick={() => void copy()} className={secondaryButton}>
          Copy<span className="sr-only"> the key</span>
        </button>
      ) : null}
      <span role="status" aria-live="polite" className="basis-full text-sm font-medium text-primary">
        {said === "copied" ? "Copied!" : said === "failed" ? "Couldn't copy: select the key and copy it yourself." : ""}
      </span>
    </div>
  );
}
