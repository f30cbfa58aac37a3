import { Link } from "react-router";
import { LocalDateTime } from "#app/components/opportunities/LocalDateTime";
import { NO_NAME_GIVEN, PAYMENT_KIND_LABELS, supporterRowId } from "#isomorphic/supporters";
import { RefundButton } from "./RefundButton";
import { PrivateMark } from "./PrivateMark";
import { StatusBadge } from "./StatusBadge";
import type { PaymentCardView } from "./SponsorPaymentCard";
import { PAYMENTS_PATH } from "./paths";

const infoButton =
  "inline-flex items-center justify-center rounded-full border border-primary bg-white px-4 py-2 text-sm font-semibold text-primary no-underline hover:bg-primary/5";

/**
 * One payment on Supporters, the one list of a creator's money: who paid (the name they gave),
 * how much and when, its status, their message and email, Refund (asks first) and Info. Its id
 * is what a "Payment received" notification points at.
 */
export function SupporterRow({ card, locale, returnTo }: { card: PaymentCardView; locale: string; returnTo: string }) {
  const rowId = supporterRowId(card.id);
  const headingId = `${rowId}-name`;
  const name = card.supporterName ?? NO_NAME_GIVEN;
  return (
    <li id={rowId} aria-labelledby={headingId} className="scroll-mt-6 rounded-2xl border border-ink/15 bg-white p-4 shadow-sm target:ring-2 target:ring-primary sm:p-5">
      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
        <div className="min-w-0 flex-1">
          <h2 id={headingId} className={`break-words text-lg font-bold ${card.supporterName ? "" : "text-muted"}`}>
            {name}
            {card.private ? <PrivateMark /> : null}
          </h2>
          <p className="text-sm text-muted">
            {PAYMENT_KIND_LABELS[card.kind]} · <LocalDateTime iso={card.created} serverLocale={locale} />
          </p>
        </div>
        <div className="flex flex-col items-end gap-1">
          <p className="text-xl font-bold tabular-nums">{card.amount}</p>
          <StatusBadge status={card.status} refundPending={card.refundPending} />
        </div>
      </div>
      {card.dispute ? <p className={`mt-2 text-sm font-semibold ${card.dispute.open ? "text-red-800" : "text-ink"}`}>{card.dispute.text}</p> : null}
      <dl className="mt-3 space-y-2 text-sm">
        <div>
          <dt className="text-muted">Message</dt>
          <dd className="whitespace-pre-line break-words text-base">{card.message.trim() ? card.message : "No message provided"}</dd>
        </div>
        <div className="flex flex-wrap gap-x-2">
          <dt className="text-muted">Email</dt>
          <dd className="min-w-0 break-all">{card.sponsorEmail ?? "Not provided"}</dd>
        </div>
      </dl>
      <div className="mt-3 flex flex-wrap items-center gap-2" aria-live="polite">
        <RefundButton
          sessionId={card.id}
          status={card.status}
          refundPending={card.refundPending}
          returnTo={returnTo}
          describedBy={headingId}
          amount={card.amount}
          sponsor={card.supporterName ?? card.sponsorEmail}
        />
        <Link to={`${PAYMENTS_PATH}/${card.id}`} className={infoButton} aria-describedby={headingId}>
          Info
        </Link>
      </div>
    </li>
  );
}
