import { Link } from "react-router";
import type { SponsorSessionKind, SponsorSessionStatus } from "#server/platform/db/schema";
import { LocalDateTime } from "#app/components/opportunities/LocalDateTime";
import { NO_NAME_GIVEN, PAYMENT_KIND_LABELS, supporterHref } from "#isomorphic/supporters";
import { RefundButton } from "./RefundButton";
import { PrivateMark } from "./PrivateMark";
import { StatusBadge } from "./StatusBadge";

export type PaymentCardView = {
  id: string;
  created: string;
  status: SponsorSessionStatus;
  refundPending: boolean;
  sponsorEmail: string | null;
  /** The name the supporter gave (null: none), and whether they asked to stay off the public wall. */
  supporterName: string | null;
  private: boolean;
  message: string;
  amount: string;
  kind: SponsorSessionKind;
  /** The chargeback in words: "Evidence due by December 3, 2026" while open, "Dispute won" / "Dispute lost" once decided. */
  dispute: { open: boolean; text: string } | null;
};

const pill = "inline-flex items-center justify-center rounded-full border px-4 py-2 text-sm font-semibold no-underline";
const infoButton = `${pill} border-primary bg-white text-primary hover:bg-primary/5`;

/**
 * One payment on My Sponsorships (SPEC §2.5 "Sponsor payments (cards)"): its
 * date, status, the supporter's name (linking to their row on Supporters), sponsor email,
 * message, Refund (RefundButton) and Info.
 */
export function SponsorPaymentCard({
  card,
  locale,
  returnTo,
  onRefunded,
}: {
  card: PaymentCardView;
  locale: string;
  returnTo: string;
  onRefunded?(card: PaymentCardView, status: "pending" | "succeeded"): void;
}) {
  const headingId = `payment-${card.id}`;
  return (
    <li aria-labelledby={headingId} className="flex min-w-0 flex-col rounded-2xl border border-ink/15 p-5 shadow-sm">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h2 id={headingId} className="text-lg font-bold">
          <LocalDateTime iso={card.created} serverLocale={locale} />
        </h2>
        <StatusBadge status={card.status} refundPending={card.refundPending} />
      </div>
      {card.dispute ? (
        <p className={`mt-1 text-sm font-semibold ${card.dispute.open ? "text-red-800" : "text-ink"}`}>{card.dispute.text}</p>
      ) : null}
      <p className="mt-1 text-sm text-muted">
        {PAYMENT_KIND_LABELS[card.kind]} · <span className="font-semibold text-ink">{card.amount}</span>
      </p>
      <dl className="mt-3 space-y-2 text-sm">
        <div>
          <dt className="text-muted">Supporter</dt>
          <dd className="break-words">
            <Link to={supporterHref(card.id)} className={card.supporterName ? "text-ink" : "text-muted"}>
              {card.supporterName ?? NO_NAME_GIVEN}
            </Link>
            {card.private ? <PrivateMark /> : null}
          </dd>
        </div>
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
        <RefundButton
          sessionId={card.id}
          status={card.status}
          refundPending={card.refundPending}
          returnTo={returnTo}
          describedBy={headingId}
          amount={card.amount}
          sponsor={card.supporterName ?? card.sponsorEmail}
          onRefunded={onRefunded ? (status) => onRefunded(card, status) : undefined}
        />
        <Link to={`/app/account/sponsors/payments/${card.id}`} className={infoButton} aria-describedby={headingId}>
          Info
        </Link>
      </div>
    </li>
  );
}
