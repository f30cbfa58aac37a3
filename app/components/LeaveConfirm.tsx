import { useEffect, useRef } from "react";
import type { Blocker } from "react-router";
import { primaryButton, secondaryButton } from "#page-kit/forms";

/**
 * The question a blocked in-app link asks while a page has unsaved edits: stay (the default, and
 * Escape) keeps every edit where it was; leave goes on to where the link pointed. A modal dialog,
 * so focus stays in it until it is answered.
 */
export function LeaveConfirm({ blocker }: { blocker: Blocker }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const blocked = blocker.state === "blocked";
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (blocked && !element.open) element.showModal();
    if (!blocked && element.open) element.close();
  }, [blocked]);
  return (
    <dialog
      ref={dialog}
      aria-labelledby="leave-confirm-heading"
      aria-describedby="leave-confirm-text"
      onCancel={(event) => {
        event.preventDefault();
        blocker.reset?.();
      }}
      className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-2xl border border-ink/15 bg-white p-6 text-ink shadow-xl backdrop:bg-ink/50"
    >
      <h2 id="leave-confirm-heading" className="text-xl font-bold">
        Leave without saving?
      </h2>
      <p id="leave-confirm-text" className="mt-2">
        Your changes on this page aren't saved yet. If you leave now, they will be lost.
      </p>
      <div className="mt-6 flex flex-wrap gap-3">
        <button type="button" autoFocus className={primaryButton} onClick={() => blocker.reset?.()}>
          Stay and keep editing
        </button>
        <button type="button" className={secondaryButton} onClick={() => blocker.proceed?.()}>
          Leave without saving
        </button>
      </div>
    </dialog>
  );
}
