import { useEffect, useRef, useState } from "react";
import { useHydrated } from "#app/lib/use-hydrated";
import { secondaryButton } from "#page-kit/forms";

/**
 * The new key, the only time it is ever shown: we keep a hash of it, not the key. A read-only
 * field to select (works without JavaScript), a Copy button where the clipboard can be used, and
 * a curl line to try it with. Focus moves here so a screen reader hears it first.
 */
export function NewApiKeyShown({ apiKey, name, origin }: { apiKey: string; name: string; origin: string }) {
  const hydrated = useHydrated();
  const [said, setSaid] = useState<"copied" | "failed" | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [apiKey]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(apiKey);
      setSaid("copied");
    } catch {
      setSaid("failed");
    }
  };
  const curl = `curl -H "Authorization: Bearer ${apiKey}" ${origin}/api/v1/me`;
  return (
    <section aria-labelledby="new-key-shown" className="mt-8 rounded-2xl border-2 border-primary bg-secondary/30 p-4 sm:p-6" data-testid="new-api-key">
      <h2 id="new-key-shown" ref={heading} tabIndex={-1} className="text-xl font-bold">
        Your new key “{name}”
      </h2>
      <p className="mt-2 font-semibold">Copy it now: you won't see it again. We keep only a fingerprint of it, so nobody can show it to you later.</p>
      <div className="mt-4 flex flex-wrap items-center gap-2">
        <label htmlFor="new-api-key-value" className="sr-only">
          API key
        </label>
        <input
          id="new-api-key-value"
          readOnly
          value={apiKey}
          onFocus={(event) => event.currentTarget.select()}
          className="min-w-0 flex-1 basis-64 rounded-lg border border-ink/25 bg-white px-3 py-2 font-mono text-sm"
        />
        {hydrated ? (
          <button type="button" onClick={() => void copy()} className={secondaryButton}>
            Copy<span className="sr-only"> the API key</span>
          </button>
        ) : null}
        <span role="status" aria-live="polite" className="basis-full text-sm font-medium text-primary">
          {said === "copied" ? "Copied!" : said === "failed" ? "Couldn't copy: select the key and copy it yourself." : ""}
        </span>
      </div>
      <p className="mt-4">Try it from a terminal:</p>
      <pre className="mt-2 overflow-x-auto rounded-lg bg-ink p-3 text-sm text-white" tabIndex={0} aria-label="Example request with curl">
        <code>{curl}</code>
      </pre>
      <p className="mt-3 text-sm">
        Keep it like a password: in your tool's secret settings, not in code you share. If it leaks, revoke it below and make a new one.
      </p>
    </section>
  );
}
