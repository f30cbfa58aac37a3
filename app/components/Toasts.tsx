import { useEffect, useState } from "react";
import { useHydrated } from "#app/lib/use-hydrated";
import type { Toast } from "#server/platform/http/toast";

const AUTO_CLOSE_MS = 5_000;

const styles: Record<Toast["kind"], string> = {
  info: "bg-ink text-white",
  success: "bg-primary text-white",
  error: "bg-red-700 text-white",
};

/**
 * Bottom-centre toast raised by a loader or action (often across a redirect).
 * Without JavaScript it simply stays on the page; with it, it closes itself.
 */
export function Toasts({ toast }: { toast: Toast | null }) {
  const [dismissed, setDismissed] = useState<Toast | null>(null);
  const interactive = useHydrated();
  const visible = toast && toast !== dismissed ? toast : null;

  useEffect(() => {
    if (!toast) return;
    const timer = setTimeout(() => setDismissed(toast), AUTO_CLOSE_MS);
    return () => clearTimeout(timer);
  }, [toast]);

  return (
    <div className="pointer-events-none fixed inset-x-0 bottom-4 z-50 flex justify-center px-4" aria-live="polite">
      {visible ? (
        <div
          role={visible.kind === "error" ? "alert" : "status"}
          data-toast={visible.kind}
          className={`pointer-events-auto flex max-w-md items-center gap-4 rounded-lg px-5 py-3 shadow-xl ${styles[visible.kind]}`}
        >
          <p className="min-w-0 break-words">{visible.message}</p>
          {interactive ? (
            <button
              type="button"
              onClick={() => setDismissed(toast)}
              className="shrink-0 rounded px-2 py-1 text-sm font-semibold underline"
              aria-label="Dismiss notification"
            >
              Close
            </button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
