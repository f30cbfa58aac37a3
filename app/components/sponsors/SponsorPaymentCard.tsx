import { useEffect, useState } from "react";
import { Link, useFetcher } from "react-router";
import type { SponsorSessionStatus } from "#server/db/schema";
import { LocalDateTime } from "#app/components/opportunities/LocalDateTime";
import { useHydrated } from "#app/lib/use-hydrated";
import type { RefundAnswer } from "#app/routes/sponsors/refund";
import { StatusBadge } from "./StatusBadge";

/** SPEC §9: 'Refunded' stays for 4 seconds. */
export const REFUNDED_MS = 4000;

export type PaymentCardView = {
  id: string;
  created: string;
  status: SponsorSessionStatus;
  refundPending: boolean;
  sponsorEmail: string | null;
  message: string;
  amount: string;
  kind: "tip" | "sponsorship";
};

const pill = "inline-flex items-center justify-center rounded-full border px-4 py-2 text-sm font-semibold no-underline";
const infoButton = `${pill} border-primary bg-white text-primary hover:bg-primary/5`;
const refundButton = `${pill} border-red-700 bg-white text-red-700 hover:bg-red-50 disabled:cursor-not-allowed disabled:border-ink/30 disabled:text-ink/70 disabled:hover:bg-white`;

/**
 * One payment on My Sponsorships (SPEC §2.5 "Sponsor payments (cards)"). Refund
 * is enabled only for a completed payment with no refund on its way: click →
 * 'Loading...' → 'Refunded' for 4 s → the card as the server sees it
 * ("Refund pending" until the provider's webhook, then Refunded).
 */
export function SponsorPaymentCard({ card, locale, returnTo }: { card: PaymentCardView; locale: string; returnTo: string }) {
  const hydrated = useHydrated();
  const fetcher = useFetcher<RefundAnswer>();
  const answer = fetcher.state === "idle" ? fetcher.data : undefined;
  // The answer whose 4 s are over; 'Refunded' shows for a successful answer until then.
  const [expired, setExpired] = useState<RefundAnswer | undefined>(undefined);
  const showDone = answer?.ok === true && expired !== answer;

  useEffect(() => {
    if (!answer?.ok) return;
    const timer = setTimeout(() => setExpired(answer), REFUNDED_MS);
    return () => clearTimeout(timer);
  }, [answer]);

  const refundable = card.status === "completed" && !card.refundPending && !answer?.ok;
  // 'Refunded' is the answer to this click; afterwards the badge says what the provider confirmed.
  const label = fetcher.state !== "idle" ? "Loading..." : showDone ? "Refunded" : "Refund";
  const headingId = `payment-${card.id}`;

  return (
    <li aria-labelledby={headingId} className="flex min-w-0 flex-col rounded-2xl border border-ink/15 p-5 shadow-sm">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h2 id={headingId} className="text-lg font-bold">
          <LocalDateTime iso={card.created} serverLocale={locale} />
        </h2>
        <StatusBadge status={card.status} refundPending={card.refundPending} />
      </div>
      <p className="mt-1 text-sm text-muted">
        {card.kind === "sponsorship" ? "Sponsorship" : "Tip"} · <span className="font-semibold text-ink">{card.amount}</span>
      </p>
      <dl className="mt-3 space-y-2 text-sm">
        <div>
          <dt className="text-muted">Sponsor email</dt>
          <dd className="break-all">{card.sponsorEmail ?? "Not provided"}</dd>
        </div>
        <div>
          <dt className="text-muted">Message</dt>
          <dd className="whitespace-pre-line break-words">{card.message.trim() ? card.message : "No message provided"}</dd>
        </div>
      </dl>
      <div className="mt-auto flex flex-wrap items-center gap-2 pt-4" aria-live="polite">
        <fetcher.Form method="post" action={`/app/account/sponsors/payments/${card.id}/refund`}>
          <input type="hidden" name="returnTo" value={returnTo} />
          {hydrated ? <input type="hidden" name="via" value="fetcher" /> : null}
          <button type="submit" className={refundButton} disabled={!refundable || fetcher.state !== "idle"} aria-describedby={headingId}>
            {label}
          </button>
        </fetcher.Form>
        <Link to={`/app/account/sponsors/payments/${card.id}`} className={infoButton} aria-describedby={headingId}>
          Info
        </Link>
        {answer && !answer.ok ? (
          <p role="alert" className="basis-full text-sm font-medium text-red-700">
            {answer.message}
          </p>
        ) : null}
      </div>
    </li>
  );
}
