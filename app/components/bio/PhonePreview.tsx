import { useEffect, useRef, useState, type RefObject } from "react";
import { useHydrated } from "#app/lib/use-hydrated";

type Props = {
  /** The owner's preview address: GET draws the saved page, POST the page with the forms' unsaved fields. */
  src: string;
  /** The editor's forms: every change in them redraws the preview. */
  forms: RefObject<HTMLElement | null>;
};

const DEBOUNCE_MS = 300;

/** Every form's fields in `root`, as one body: no files (the preview needs none) and no submit intents. */
function fieldsOf(root: HTMLElement): URLSearchParams {
  const body = new URLSearchParams();
  for (const form of root.querySelectorAll("form")) {
    for (const [name, value] of new FormData(form)) {
      if (typeof value === "string" && name !== "intent") body.append(name, value);
    }
  }
  return body;
}

/**
 * The page as visitors will see it, in a phone-sized frame: the bio host's
 * own HTML (one renderer), whose policy lets no script run (server/domains/bio/host/preview.ts). Without JavaScript the
 * frame loads the saved page, and a save reloads it. With JavaScript, each
 * change in the editor's forms posts their current values (after a short
 * pause in typing) and the frame shows the answer; nothing is saved by it.
 */
export function PhonePreview({ src, forms }: Props) {
  const hydrated = useHydrated();
  const frame = useRef<HTMLIFrameElement>(null);
  const [state, setState] = useState<"saved" | "live" | "updating" | "failed">("saved");

  useEffect(() => {
    const root = forms.current;
    if (!root) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let inFlight: AbortController | null = null;
    const redraw = async () => {
      inFlight?.abort();
      const controller = (inFlight = new AbortController());
      setState("updating");
      try {
        const response = await fetch(src, { method: "POST", body: fieldsOf(root), signal: controller.signal, credentials: "same-origin" });
        if (!response.ok) throw new Error(`preview answered ${response.status}`);
        const html = await response.text();
        if (controller.signal.aborted || !frame.current) return;
        frame.current.srcdoc = html;
        setState("live");
      } catch {
        if (!controller.signal.aborted) setState("failed");
      }
    };
    const schedule = () => {
      clearTimeout(timer);
      timer = setTimeout(() => void redraw(), DEBOUNCE_MS);
    };
    // Clicks too: buttons that add, remove or move rows change the forms without an input event.
    const events = ["input", "change", "click"] as const;
    for (const name of events) root.addEventListener(name, schedule);
    return () => {
      clearTimeout(timer);
      inFlight?.abort();
      for (const name of events) root.removeEventListener(name, schedule);
    };
  }, [forms, src]);

  return (
    <figure className="mx-auto w-full max-w-[410px]">
      <div className="rounded-[2.75rem] border-[10px] border-ink bg-ink shadow-xl">
        <iframe
          ref={frame}
          src={src}
          title="Preview of your page"
          className="block h-[740px] w-full rounded-[2rem] bg-white lg:h-[min(740px,calc(100vh-9rem))]"
        />
      </div>
      <figcaption className="mt-3 text-center text-sm text-muted">
        {state === "failed"
          ? "The preview couldn't update. It shows your page as last drawn."
          : state === "saved"
            ? hydrated
              ? "Your page as saved. Changes show here as you make them."
              : "Your page as saved. Save your changes to see them here."
            : state === "updating"
              ? "Updating the preview…"
              : "Preview of your unsaved changes. Save to publish them."}
      </figcaption>
    </figure>
  );
}
