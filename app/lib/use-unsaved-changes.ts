import { useCallback, useEffect, useState, type RefObject } from "react";
import { useBlocker, type BlockerFunction } from "react-router";

/** A form's fields as text, buttons' intents aside: two equal snapshots are the same edits. */
function snapshot(form: HTMLFormElement): string {
  return JSON.stringify([...new FormData(form)].filter(([name, value]) => name !== "intent" && typeof value === "string"));
}

/** Events after which a form's fields may have changed: typing, picking, and buttons that add, remove or move rows. */
const CHANGE_EVENTS = ["input", "change", "click", "keyup", "pointerup"] as const;

/**
 * Whether `form` holds edits that are not saved: its fields now against what they held when it
 * was drawn (again when `drawnAs` changes). `unsavedFromStart`: what it was drawn with is itself
 * unsaved (a refused save, drawn again as typed). Without JavaScript nothing runs: the form is
 * posted whole and nothing is tracked.
 */
export function useUnsavedChanges(form: RefObject<HTMLFormElement | null>, drawnAs: string, unsavedFromStart: boolean): boolean {
  // Which drawing the comparison is about: a form drawn again starts from what it was drawn with.
  const [changed, setChanged] = useState({ drawnAs, changed: false });
  useEffect(() => {
    const root = form.current;
    if (!root) return;
    const saved = snapshot(root);
    let timer: ReturnType<typeof setTimeout> | undefined;
    // After React has drawn what the event changed (a row added, a preset's colours filled in).
    const check = () => {
      clearTimeout(timer);
      timer = setTimeout(() => setChanged({ drawnAs, changed: snapshot(root) !== saved }));
    };
    for (const name of CHANGE_EVENTS) root.addEventListener(name, check);
    return () => {
      clearTimeout(timer);
      for (const name of CHANGE_EVENTS) root.removeEventListener(name, check);
    };
  }, [form, drawnAs]);
  return unsavedFromStart || (changed.drawnAs === drawnAs && changed.changed);
}

/**
 * While `dirty`, leaving asks first: closing or reloading the tab through the browser's own
 * question (beforeunload), a link inside the app through the blocker the page shows as a
 * confirm. Submitting the page's own form (same address) is not leaving.
 */
export function useLeaveGuard(dirty: boolean) {
  useEffect(() => {
    if (!dirty) return;
    const ask = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers ask only when returnValue is set.
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", ask);
    return () => window.removeEventListener("beforeunload", ask);
  }, [dirty]);
  const leaving = useCallback<BlockerFunction>(({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname, [dirty]);
  return useBlocker(leaving);
}
