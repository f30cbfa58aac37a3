import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import { useFetcher } from "react-router";
import type { SponsorSessionStatus } from "#server/platform/db/schema";
import { useHydrated } from "#app/lib/use-hydrated";
import { PAYMENTS_PATH } from "./paths";

/** What a card's Refund button gets back when it asks from the page (a fetcher). */
export type RefundAnswer = { refunded: true; status: "pending" | "succeeded" } | { refunded: false; message: string };

/** SPEC §9: 'Refunded' stays for 4 seconds. */
export const REFUNDED_MS = 4000;

const pill = "inline-flex items-center justify-center rounded-full border px-4 py-2 text-sm font-semibold no-underline";
const refundButton = `${pill} border-red-700 bg-white text-red-700 hover:bg-red-50 disabled:cursor-not-allowed disabled:border-ink/30 disabled:text-ink/70 disabled:hover:bg-white aria-disabled:cursor-not-allowed aria-disabled:border-ink/30 aria-disabled:text-ink/70 aria-disabled:hover:bg-white`;
const cancelButton = `${pill} border-primary bg-white text-primary hover:bg-primary/5`;

/** The question before a refund: the amount and who gets it back (docs/decisions/0036-creator-home.md). */
export function refundQuestion(amount: string, sponsor: string | null): string {
  return `Are you sure? Refund ${amount} to ${sponsor ?? "the sponsor"}?`;
}
export const REFUND_CONSEQUENCE = "The money goes back to their card. This can't be undone.";

/** Where the question is asked without JavaScript: a page of its own. */
export const refundPath = (sessionId: string) => `${PAYMENTS_PATH}/${encodeURIComponent(sessionId)}/refund`;

export type RefundButtonProps = {
  sessionId: string;
  status: SponsorSessionStatus;
  refundPending: boolean;
  /** Where the form without JavaScript comes back to, with its toast. */
  returnTo: string;
  /** The id of what names the payment (the card's or row's heading). */
  describedBy: string;
  /** The payment's amount in words and who paid it, for the question asked first. */
  amount: string;
  sponsor: string | null;
  /** Told once the server took the refund, before the page's data is reloaded, so a list can keep showing the payment while 'Refunded' is up. */
  onRefunded?(status: "pending" | "succeeded"): void;
};

/**
 * The Refund action of one payment (SPEC §2.5, §4), the same on My
 * Sponsorships' cards and the Sponsors Dashboard's rows: enabled only for a
 * completed payment with no refund on its way; click → 'Loading...' →
 * 'Refunded' for 4 s → the payment as the server sees it ("Refund pending"
 * until the provider's webhook, then Refunded). Without JavaScript it is a
 * plain form that comes back to `returnTo` with a toast.
 */
export function RefundButton({ sessionId, status, refundPending, returnTo, describedBy, amount, sponsor, onRefunded }: RefundButtonProps) {
  const hydrated = useHydrated();
  const fetcher = useFetcher<RefundAnswer>();
  const answer = fetcher.state === "idle" ? fetcher.data : undefined;
  // The answer whose 4 s are over; 'Refunded' shows for a successful answer until then.
  const [expired, setExpired] = useState<RefundAnswer | undefined>(undefined);
  const showDone = answer?.refunded === true && expired !== answer;

  useEffect(() => {
    if (!answer?.refunded) return;
    const timer = setTimeout(() => setExpired(answer), REFUNDED_MS);
    return () => clearTimeout(timer);
  }, [answer]);

  // The action's answer is there already while the page's data is reloaded ("loading"): a list
  // that would drop this payment with that reload is told now, before it does. Once per answer,
  // however often a parent hands a new function.
  const taken = fetcher.state === "submitting" ? undefined : fetcher.data;
  const told = useRef<RefundAnswer | undefined>(undefined);
  useEffect(() => {
    if (!taken?.refunded || told.current === taken) return;
    told.current = taken;
    onRefunded?.(taken.status);
  }, [taken, onRefunded]);

  const refundable = status === "completed" && !refundPending && !answer?.refunded;
  // 'Refunded' is the answer to this click; afterwards the badge says what the provider confirmed.
  const label = fetcher.state !== "idle" ? "Loading..." : showDone ? "Refunded" : "Refund";
  const enabled = refundable && fetcher.state === "idle";

  // The question first: Refund opens it, Cancel or Escape closes it and focus comes back to Refund.
  const [asking, setAsking] = useState(false);
  const refundRef = useRef<HTMLButtonElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const moved = useRef(false);
  useEffect(() => {
    if (!moved.current) return;
    if (asking) cancelRef.current?.focus();
    else refundRef.current?.focus();
  }, [asking]);
  const questionId = `refund-question-${sessionId}`;
  const close = () => {
    moved.current = true;
    setAsking(false);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "Escape") {
      event.preventDefault();
      close();
    }
  };

  if (!hydrated) {
    // Without JavaScript the question is a page of its own (the refund route's GET).
    return (
      <form method="get" action={refundPath(sessionId)}>
        <input type="hidden" name="returnTo" value={returnTo} />
        <button type="submit" className={refundButton} disabled={!refundable} aria-describedby={describedBy}>
          Refund
        </button>
      </form>
    );
  }

  return (
    <>
      {/* aria-disabled rather than disabled while it works: a disabled button drops the focus the question gave back to it. */}
      <button
        ref={refundRef}
        type="button"
        className={refundButton}
        aria-disabled={!enabled}
        aria-expanded={asking}
        aria-controls={asking ? questionId : undefined}
        aria-describedby={describedBy}
        onClick={() => {
          if (!enabled) return;
          moved.current = true;
          setAsking(true);
        }}
      >
        {label}
      </button>
      {asking ? (
        <div id={questionId} role="group" aria-labelledby={`${questionId}-text`} onKeyDown={onKeyDown} className="basis-full rounded-xl border border-red-700/40 bg-red-50 p-3">
          <p id={`${questionId}-text`} className="font-semibold text-ink">
            {refundQuestion(amount, sponsor)}
          </p>
          <p className="text-sm text-muted">{REFUND_CONSEQUENCE}</p>
          <fetcher.Form
            method="post"
            action={refundPath(sessionId)}
            className="mt-2 flex flex-wrap gap-2"
            onSubmit={() => {
              moved.current = true;
              setAsking(false);
            }}
          >
            <input type="hidden" name="returnTo" value={returnTo} />
            <input type="hidden" name="confirmed" value="yes" />
            <input type="hidden" name="via" value="fetcher" />
            <button type="submit" className={refundButton}>
              Yes, refund
            </button>
            <button ref={cancelRef} type="button" className={cancelButton} onClick={close}>
              Cancel
            </button>
          </fetcher.Form>
        </div>
      ) : null}
      {answer && !answer.refunded ? (
        <p role="alert" className="basis-full text-sm font-medium text-red-700">
          {answer.message}
        </p>
      ) : null}
    </>
  );
}
