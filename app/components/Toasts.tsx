import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { useHydrated } from "#app/lib/use-hydrated";
import type { Toast } from "#server/platform/http/toast";

const AUTO_CLOSE_MS = 5_000;
/** Room kept between the toast and what it must not cover, in px. */
const CLEARANCE = 12;
/** What a person acts on, which the toast keeps off where it can. */
const CONTROLS = "a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex='-1'])";

const styles: Record<Toast["kind"], string> = {
  info: "bg-ink text-white",
  success: "bg-primary text-white",
  error: "bg-red-700 text-white",
};

type Placement = "bottom" | "top";

function overlaps(a: DOMRect, b: DOMRect): boolean {
  return a.left < b.right && b.left < a.right && a.top < b.bottom + CLEARANCE && b.top - CLEARANCE < a.bottom;
}

/** A screen's primary action: what sends its form, or the button drawn as the main one. */
const SUBMIT = "button[type='submit'], input[type='submit']";
const isPrimary = (control: HTMLElement) => control.matches(SUBMIT) || control.classList.contains("bg-primary");

/**
 * How much of what a person acts on in the page's main part lies under `box`: a primary action
 * weighs most. The header's and footer's links don't count (the page's own controls matter, and
 * the bottom edge, where toasts belong, is often the short page's footer); nor do the toast's own.
 */
function coverCost(box: DOMRect, toast: HTMLElement): number {
  const main = document.getElementById("main");
  if (!main) return 0;
  let cost = 0;
  for (const control of main.querySelectorAll<HTMLElement>(CONTROLS)) {
    if (toast.contains(control)) continue;
    const rect = control.getBoundingClientRect();
    if (rect.width === 0 || rect.height === 0 || !overlaps(rect, box)) continue;
    cost += isPrimary(control) ? 10 : 1;
  }
  return cost;
}

/** Bottom (SPEC: toasts at the bottom centre) unless it covers the page's controls there and the top edge covers less. */
function bestPlacement(toast: HTMLElement, now: Placement): Placement {
  const bottom = coverCost(boxAt(toast, "bottom", now), toast);
  if (bottom === 0) return "bottom";
  return coverCost(boxAt(toast, "top", now), toast) < bottom ? "top" : "bottom";
}

/**
 * Where a toast at the top edge starts: below the site's header while it is on screen (its
 * navigation stays usable), else at the top of the screen, clear of a phone's notch.
 */
function topEdge(): number {
  const header = document.querySelector("body > header");
  return Math.max(0, header?.getBoundingClientRect().bottom ?? 0) + CLEARANCE;
}

/** The toast's box were it at `placement`: the same size, at that edge. */
function boxAt(toast: HTMLElement, placement: Placement, now: Placement): DOMRect {
  const rect = toast.getBoundingClientRect();
  if (placement === now && placement === "bottom") return rect;
  const top = placement === "top" ? topEdge() : window.innerHeight - CLEARANCE - rect.height;
  return new DOMRect(rect.left, top, rect.width, rect.height);
}

/**
 * Bottom-centre toast raised by a loader or action (often across a redirect): small, above a
 * phone's bottom edge (its safe area), and kept off what a person acts on. While it shows, the
 * page keeps room for it at its end and scrolls focused fields clear of it; where it would lie
 * over a button or a field of the page it goes to the top instead (below the header while that
 * shows), if less lies under it there; a control focused under it (or Escape) closes it. Without JavaScript it simply stays
 * on the page; with it, it closes itself.
 */
export function Toasts({ toast }: { toast: Toast | null }) {
  const [dismissed, setDismissed] = useState<Toast | null>(null);
  const [placed, setPlaced] = useState<{ toast: Toast | null; placement: Placement; top: number }>({ toast: null, placement: "bottom", top: 0 });
  const box = useRef<HTMLDivElement>(null);
  const room = useRef<HTMLDivElement>(null);
  const interactive = useHydrated();
  const visible = toast && toast !== dismissed ? toast : null;
  const placement = placed.toast === visible ? placed.placement : "bottom";
  const top = placed.toast === visible ? placed.top : 0;

  useEffect(() => {
    if (!toast) return;
    const timer = setTimeout(() => setDismissed(toast), AUTO_CLOSE_MS);
    return () => clearTimeout(timer);
  }, [toast]);

  useLayoutEffect(() => {
    const element = box.current;
    if (!visible || !element) return;
    const root = document.documentElement;
    const reserve = element.offsetHeight + 2 * CLEARANCE;
    // Set before the toast is placed, so the page's end (a short page's footer) has moved up already.
    if (room.current) room.current.style.height = `${reserve}px`;
    // Focus moved by the keyboard scrolls the field clear of the toast.
    root.style.scrollPaddingBottom = `${reserve}px`;

    let now: Placement = "bottom";
    let nowTop = 0;
    // Scroll and resize events come at most once a frame: placing the toast on each is cheap enough.
    const place = () => {
      const next = bestPlacement(element, now);
      const nextTop = next === "top" ? Math.round(topEdge()) : 0;
      if (next !== now || nextTop !== nowTop) {
        now = next;
        nowTop = nextTop;
        setPlaced({ toast: visible, placement: next, top: nextTop });
      }
    };
    const focused = (event: FocusEvent) => {
      const target = event.target;
      if (target instanceof HTMLElement && !element.contains(target) && overlaps(target.getBoundingClientRect(), element.getBoundingClientRect())) setDismissed(visible);
      else place();
    };
    const escape = (event: KeyboardEvent) => {
      if (event.key === "Escape") setDismissed(visible);
    };
    place();
    window.addEventListener("scroll", place, { passive: true });
    window.addEventListener("resize", place);
    document.addEventListener("focusin", focused);
    document.addEventListener("keydown", escape);
    return () => {
      window.removeEventListener("scroll", place);
      window.removeEventListener("resize", place);
      document.removeEventListener("focusin", focused);
      document.removeEventListener("keydown", escape);
      root.style.scrollPaddingBottom = "";
    };
  }, [visible]);

  const edge = placement === "top" ? "" : "bottom-[calc(env(safe-area-inset-bottom,0px)+0.75rem)]";
  return (
    <>
      {/* The page's end moves up by the toast's height, so nothing is left only under it. */}
      {visible ? <div ref={room} aria-hidden="true" data-toast-room="" /> : null}
      <div
        className={`pointer-events-none fixed inset-x-0 ${edge} z-50 flex justify-center px-3`}
        style={placement === "top" ? { top: `max(${top}px, calc(env(safe-area-inset-top, 0px) + 0.75rem))` } : undefined}
        aria-live="polite"
        data-toast-placement={placement}
      >
        {visible ? (
          <div
            ref={box}
            role={visible.kind === "error" ? "alert" : "status"}
            data-toast={visible.kind}
            className={`pointer-events-auto flex max-w-sm items-center gap-3 rounded-lg py-2 pr-2 pl-4 text-sm shadow-lg ${styles[visible.kind]}`}
          >
            <p className="min-w-0 break-words">{visible.message}</p>
            {interactive ? (
              <button
                type="button"
                onClick={() => setDismissed(toast)}
                className="shrink-0 rounded px-2 py-1 font-semibold underline"
                aria-label="Dismiss notification"
              >
                Close
              </button>
            ) : null}
          </div>
        ) : null}
      </div>
    </>
  );
}
