import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import type { SponsorSessionStatus } from "#server/db/schema";
import { useHydrated } from "#app/lib/use-hydrated";
import { PAYMENTS_PATH } from "./paths";

/** What a card's Refund button gets back when it asks from the page (a fetcher). */
export type RefundAnswer = { refunded: true; status: "pending" | "succeeded" } | { refunded: false; message: string };

/** SPEC §9: 'Refunded' stays for 4 seconds. */
export const REFUNDED_MS = 4000;

const pill = "inline-flex items-center justify-center rounded-full border px-4 py-2 text-sm font-semibold no-underline";
const refundButton = `${pill} border-red-700 bg-white text-red-700 hover:bg-red-50 disabled:cursor-not-allowed disabled:border-ink/30 disabled:text-ink/70 disabled:hover:bg-white`;

export type RefundButtonProps = {
  sessionId: string;
  status: SponsorSessionStatus;
  refundPending: boolean;
  /** Where the form without JavaScript comes back to, with its toast. */
  returnTo: string;
  /** The id of what names the payment (the card's or row's heading). */
  describedBy: string;
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
export function RefundButton({ sessionId, status, refundPending, returnTo, describedBy, onRefunded }: RefundButtonProps) {
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

  return (
    <>
      <fetcher.Form method="post" action={`${PAYMENTS_PATH}/${sessionId}/refund`}>
        <input type="hidden" name="returnTo" value={returnTo} />
        {hydrated ? <input type="hidden" name="via" value="fetcher" /> : null}
        <button type="submit" className={refundButton} disabled={!refundable || fetcher.state !== "idle"} aria-describedby={describedBy}>
          {label}
        </button>
      </fetcher.Form>
      {answer && !answer.refunded ? (
        <p role="alert" className="basis-full text-sm font-medium text-red-700">
          {answer.message}
        </p>
      ) : null}
    </>
  );
}
