import type { AccountOverview } from "#server/features/back-office/account-overview";
import { formatMoney } from "#isomorphic/format";
import { DataTable } from "./DataTable";
import { utcDate } from "./format";
import { INTERVAL_WORDS, MEMBERSHIP_STATUS_LABELS } from "./MembershipStatus";

type Memberships = AccountOverview["memberships"];

/** An account's memberships: those of its pages (by status, and what renews each month) and its own of others' pages. */
export function AccountMemberships({ memberships }: { memberships: Memberships }) {
  const { asCreator, asMember } = memberships;
  const statuses = Object.entries(asCreator.counts) as [keyof typeof MEMBERSHIP_STATUS_LABELS, number][];
  const total = statuses.reduce((sum, [, n]) => sum + n, 0);
  return (
    <>
      <section aria-labelledby="memberships-creator-heading" className="mt-8 max-w-3xl">
        <h2 id="memberships-creator-heading" className="text-xl font-semibold">
          Memberships of their pages
        </h2>
        {total === 0 ? (
          <p className="mt-2 text-muted">No one has joined their pages.</p>
        ) : (
          <>
            <dl className="mt-2 grid grid-cols-2 gap-x-6 gap-y-1 text-sm sm:grid-cols-3" data-testid="membership-counts">
              {statuses.map(([status, n]) => (
                <div key={status} className="flex justify-between gap-2">
                  <dt className="text-muted">{MEMBERSHIP_STATUS_LABELS[status]}</dt>
                  <dd className="font-semibold tabular-nums">{n}</dd>
                </div>
              ))}
            </dl>
            <p className="mt-3" data-testid="membership-mrr">
              Monthly recurring revenue (active and past due, a yearly price counted as a twelfth):{" "}
              <strong>{asCreator.mrr.length ? asCreator.mrr.map((m) => formatMoney(m.amount, m.currency)).join(", ") : formatMoney(0, "usd")}</strong>
            </p>
          </>
        )}
      </section>
      <section aria-labelledby="memberships-member-heading" className="mt-8 max-w-3xl">
        <h2 id="memberships-member-heading" className="text-xl font-semibold">
          Their memberships
        </h2>
        <DataTable
          caption="Their memberships of other pages, newest first"
          captionHidden
          empty="They are not a member of any page."
          rows={asMember}
          rowKey={(m) => m.id}
          columns={[
            { header: "Page", cell: (m) => (m.pageEnding ? `${m.pageName} (/${m.pageEnding})` : m.pageName) },
            { header: "Tier", cell: (m) => m.tierName },
            { header: "Amount", cell: (m) => `${formatMoney(m.amount, m.currency)} / ${INTERVAL_WORDS[m.interval]}`, numeric: true },
            { header: "Status", cell: (m) => MEMBERSHIP_STATUS_LABELS[m.status] },
            { header: "Since", cell: (m) => utcDate(m.created) },
          ]}
        />
      </section>
    </>
  );
}
