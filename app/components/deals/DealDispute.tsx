import { Form } from "react-router";
import type { DisputeView } from "#server/domains/deals/read";
import type { DealSide } from "#server/platform/db/schema";
import { MAX_DEAL_TEXT } from "#isomorphic/deal-limits";
import { formatMoney } from "#isomorphic/format";
import { secondaryButton, TextArea } from "#page-kit/forms";
import { LocalDateTime } from "#app/components/opportunities/LocalDateTime";

type Props = {
  side: DealSide;
  names: Record<DealSide, string>;
  /** The price held, in words ("$450"). */
  held: string;
  currency: string;
  dispute: DisputeView | null;
  /** The reader may open a dispute now (a booked deal whose work is not all approved). */
  canOpen: boolean;
  error?: string;
  busy: boolean;
  locale: string;
};

const DECISION_NAMES = { release: "Released to the creator", refund: "Refunded to the sponsor", split: "Split" } as const;

/**
 * A booked deal gone wrong: either side opens a dispute, which freezes the money until staff
 * decide, and both sides then read the decision with its amounts and reason.
 */
export function DealDispute({ side, names, held, currency, dispute, canOpen, error, busy, locale }: Props) {
  if (!dispute && !canOpen) return null;
  const other = side === "creator" ? "sponsor" : "creator";
  return (
    <section aria-labelledby="dispute-heading" className="mt-8 rounded-2xl border border-ink/10 p-4">
      <h2 id="dispute-heading" className="text-lg font-bold">
        {dispute ? "Dispute" : "Something went wrong?"}
      </h2>
      {dispute ? (
        <>
          <p className="mt-2 rounded-lg bg-amber-50 p-3 text-amber-900" role="status">
            {dispute.openedBy === "bank" ? "The sponsor's bank disputed the card payment" : dispute.openedBy === "you" ? "You opened a dispute" : `${names[other]} opened a dispute`} on{" "}
            <LocalDateTime iso={dispute.openedAt} serverLocale={locale} />: “{dispute.reason}”
          </p>
          {dispute.decision ? (
            <div className="mt-3 space-y-1">
              <p>
                <strong>Our staff decided: {DECISION_NAMES[dispute.decision.decision]}.</strong> {names.creator} {dispute.decision.settled ? "was paid" : "is paid"}{" "}
                {formatMoney(dispute.decision.creatorShare, currency)}; {formatMoney(dispute.decision.sponsorRefund, currency)} {dispute.decision.settled ? "went" : "goes"} back to {names.sponsor}.
              </p>
              <p className="whitespace-pre-line text-muted">“{dispute.decision.reason}”</p>
              {dispute.decision.settled ? null : <p className="text-muted">The money is moving now.</p>}
            </div>
          ) : (
            <p className="mt-2 text-muted">
              The {held} stays held: nobody is paid or refunded until our staff read the thread, the terms and the work, and decide. Add what they should know to the thread below.
            </p>
          )}
        </>
      ) : (
        <>
          <p className="mt-2 text-muted">
            If {names[other]} does not do what was agreed and the thread cannot sort it out, open a dispute. The {held} then stays held until our staff decide: release it to the creator, refund the sponsor, or split it between you.
          </p>
          <details className="mt-3" open={!!error}>
            <summary className={`${secondaryButton} cursor-pointer`}>Open a dispute</summary>
            <Form method="post" className="mt-3 space-y-3">
              <TextArea label="What went wrong (staff and the other side read it)" name="reason" id="dispute-reason" rows={3} maxLength={MAX_DEAL_TEXT} required error={error} />
              <button type="submit" name="intent" value="dispute" className={secondaryButton} disabled={busy}>
                {busy ? "Opening..." : "Open a dispute and hold the money"}
              </button>
            </Form>
          </details>
        </>
      )}
    </section>
  );
}
