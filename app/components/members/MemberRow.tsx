import { Link } from "react-router";
import { PrivateMark } from "#app/components/sponsor-payments/PrivateMark";
import { RefundButton } from "#app/components/sponsor-payments/RefundButton";
import { StatusBadge } from "#app/components/sponsor-payments/StatusBadge";
import { PAYMENTS_PATH } from "#app/components/sponsor-payments/paths";
import type { SponsorSessionStatus } from "#server/platform/db/schema";
import { cancelMemberPath, MEMBER_STATE_LABELS, memberRowId, type MemberState } from "#isomorphic/members";
import { NO_NAME_GIVEN } from "#isomorphic/supporters";

/** A date the server wrote in words (UTC), with its machine form. */
export type DateView = { iso: string; text: string };

/** One paid period, its amount in words: refundable with the same button as on Supporters. */
export type PeriodView = { id: string; paidAt: DateView; amount: string; status: SponsorSessionStatus; refundPending: boolean; dispute: string | null };

export type MemberView = {
  id: string;
  name: string | null;
  private: boolean;
  email: string | null;
  tierName: string;
  pageName: string;
  /** "$5.00 / month". */
  price: string;
  state: MemberState;
  joined: DateView;
  renewsAt: DateView | null;
  endsAt: DateView | null;
  cancelMessage: string | null;
  periods: PeriodView[];
};

const STATE_LOOKS: Record<MemberState, string> = {
  active: "bg-green-100 text-green-900",
  past_due: "bg-amber-100 text-amber-900",
  cancelled: "bg-sky-100 text-sky-900",
  ended: "bg-slate-200 text-slate-900",
};

export function MemberStateBadge({ state }: { state: MemberState }) {
  return (
    <span className={`inline-block whitespace-nowrap rounded-full px-3 py-0.5 text-xs font-semibold ${STATE_LOOKS[state]}`}>
      <span className="sr-only">State: </span>
      {MEMBER_STATE_LABELS[state]}
    </span>
  );
}

const pill = "inline-flex items-center justify-center rounded-full border px-4 py-2 text-sm font-semibold no-underline";

/**
 * One member on the creator's list: the name they gave (the creator sees it, as on Supporters,
 * with "Private" when they asked to stay off the public wall), their tier and price, when they
 * joined and when they renew or end, their address, and each paid period with its Refund.
 */
export function MemberRow({ member, returnTo, showPage }: { member: MemberView; returnTo: string; showPage: boolean }) {
  const rowId = memberRowId(member.id);
  const headingId = `${rowId}-name`;
  return (
    <li id={rowId} aria-labelledby={headingId} className="scroll-mt-6 rounded-2xl border border-ink/15 bg-white p-4 shadow-sm target:ring-2 target:ring-primary sm:p-5" data-member={member.id}>
      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
        <div className="min-w-0 flex-1">
          <p id={headingId} className={`break-words text-lg font-bold ${member.name ? "" : "text-muted"}`}>
            {member.name ?? NO_NAME_GIVEN}
            {member.private ? <PrivateMark /> : null}
          </p>
          <p className="text-sm text-muted">
            {member.tierName}
            {showPage ? ` · ${member.pageName}` : ""} · joined <time dateTime={member.joined.iso}>{member.joined.text}</time>
          </p>
        </div>
        <div className="flex flex-col items-end gap-1">
          <p className="text-xl font-bold tabular-nums">{member.price}</p>
          <MemberStateBadge state={member.state} />
        </div>
      </div>
      <dl className="mt-3 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
        <div className="flex flex-wrap gap-x-2">
          <dt className="text-muted">Email</dt>
          <dd className="min-w-0 break-all">{member.email ?? "Not provided"}</dd>
        </div>
        {member.renewsAt ? (
          <div className="flex flex-wrap gap-x-2">
            <dt className="text-muted">{member.state === "past_due" ? "Payment due since" : "Renews"}</dt>
            <dd>
              <time dateTime={member.renewsAt.iso}>{member.renewsAt.text}</time>
            </dd>
          </div>
        ) : null}
        {member.endsAt ? (
          <div className="flex flex-wrap gap-x-2">
            <dt className="text-muted">{member.state === "ended" ? "Ended" : "Ends"}</dt>
            <dd>
              <time dateTime={member.endsAt.iso}>{member.endsAt.text}</time>
            </dd>
          </div>
        ) : null}
        {member.cancelMessage !== null ? (
          <div className="sm:col-span-2">
            <dt className="text-muted">You cancelled it with this message</dt>
            <dd className="whitespace-pre-line break-words">{member.cancelMessage || "No message"}</dd>
          </div>
        ) : null}
      </dl>

      <details className="mt-3">
        <summary className="cursor-pointer text-sm font-semibold text-primary">
          Paid periods ({member.periods.length})
        </summary>
        {member.periods.length === 0 ? (
          <p className="mt-2 text-sm text-muted">No period paid yet.</p>
        ) : (
          <ul className="mt-2 divide-y divide-ink/10" aria-label={`Paid periods of ${member.name ?? NO_NAME_GIVEN}`}>
            {member.periods.map((period) => {
              const periodHeading = `period-${period.id}`;
              return (
                <li key={period.id} className="flex flex-wrap items-center justify-between gap-2 py-2" data-period={period.id}>
                  <p id={periodHeading} className="text-sm">
                    <span className="font-semibold tabular-nums">{period.amount}</span> paid <time dateTime={period.paidAt.iso}>{period.paidAt.text}</time>{" "}
                    <StatusBadge status={period.status} refundPending={period.refundPending} />
                    {period.dispute ? <span className="block text-red-800">{period.dispute}</span> : null}
                  </p>
                  <div className="flex flex-wrap items-center gap-2" aria-live="polite">
                    <RefundButton
                      sessionId={period.id}
                      status={period.status}
                      refundPending={period.refundPending}
                      returnTo={returnTo}
                      describedBy={periodHeading}
                      amount={period.amount}
                      sponsor={member.name ?? member.email}
                    />
                    <Link to={`${PAYMENTS_PATH}/${period.id}`} className={`${pill} border-primary bg-white text-primary hover:bg-primary/5`} aria-describedby={periodHeading}>
                      Info
                    </Link>
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </details>

      {member.state !== "ended" ? (
        <p className="mt-3">
          <Link to={cancelMemberPath(member.id)} className={`${pill} border-red-700 bg-white text-red-700 hover:bg-red-50`} aria-describedby={headingId}>
            Cancel membership
          </Link>
        </p>
      ) : null}
    </li>
  );
}
