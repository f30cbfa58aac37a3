import { useEffect, useState } from "react";
import { useHydrated } from "#app/lib/use-hydrated";
import { secondaryButton } from "#page-kit/forms";

/**
 * A page's address with a Copy button. Without JavaScript (or without
 * clipboard access) the address is a read-only field the person selects and
 * copies by hand; the button appears only where it can work. "Copied!" is
 * said in a polite live region and fades after a few seconds.
 */
export function CopyLink({ address, label, onCopied }: { address: string; label: string; /** Told after each successful copy. */ onCopied?: () => void }) {
  const hydrated = useHydrated();
  const [said, setSaid] = useState<"copied" | "failed" | null>(null);
  const id = `copy-${address.replace(/[^a-z0-9]/gi, "-")}`;

  useEffect(() => {
    if (!said) return;
    const timer = setTimeout(() => setSaid(null), 4000);
    return () => clearTimeout(timer);
  }, [said]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(address);
      setSaid("copied");
      onCopied?.();
    } catch {
      setSaid("failed");
    }
  };

  return (
    <div className="flex flex-wrap items-center gap-2">
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input
        id={id}
        readOnly
        value={address}
        onFocus={(event) => event.currentTarget.select()}
        className="min-w-0 flex-1 basis-56 rounded-lg border border-ink/25 bg-white px-3 py-2 font-mono text-sm"
      />
      {hydrated ? (
        <button type="button" onClick={() => void copy()} className={secondaryButton}>
          Copy<span className="sr-only"> {label.toLowerCase()}</span>
        </button>
      ) : null}
      <span role="status" aria-live="polite" className="basis-full text-sm font-medium text-primary">
        {said === "copied" ? "Copied!" : said === "failed" ? "Couldn't copy: select the address and copy it yourself." : ""}
      </span>
    </div>
  );
}
