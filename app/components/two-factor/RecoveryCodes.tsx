import { useState } from "react";
import { useHydrated } from "#app/lib/use-hydrated";
import { secondaryButton } from "#page-kit/forms";

/**
 * The recovery codes, shown once: a list to write down, a text file to download (a plain link,
 * so it works without JavaScript) and, where the clipboard can be used, a Copy button.
 */
export function RecoveryCodes({ codes, appName }: { codes: string[]; appName: string }) {
  const hydrated = useHydrated();
  const [said, setSaid] = useState<"copied" | "failed" | null>(null);
  const text = `${appName} recovery codes. Each works once, instead of a code from your authenticator app.\n\n${codes.join("\n")}\n`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes.join("\n"));
      setSaid("copied");
    } catch {
      setSaid("failed");
    }
  };
  return (
    <div>
      <ul aria-label="Recovery codes" className="grid grid-cols-2 gap-2 rounded-lg border border-ink/20 bg-white p-4 font-mono text-base" data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <a href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`} download="recovery-codes.txt" className={`${secondaryButton} no-underline`}>
          Download the codes
        </a>
        {hydrated ? (
          <button type="button" onClick={() => void copy()} className={secondaryButton}>
            Copy the codes
          </button>
        ) : null}
        <span role="status" aria-live="polite" className="text-sm font-medium text-primary">
          {said === "copied" ? "Copied!" : said === "failed" ? "Couldn't copy: select the codes and copy them yourself." : ""}
        </span>
      </div>
    </div>
  );
}
