import { Link } from "react-router";
import { requireStaff } from "#server/domains/auth/staff-guard";
import { listMembershipsForStaff, readMembershipFilters } from "#server/features/back-office/memberships";
import { formatMoney } from "#server/domains/payments/ledger/money";
import { MEMBERSHIP_STATUSES } from "#server/platform/db/schema";
import { DataTable } from "#app/components/admin/DataTable";
import { utcDate, utcTime } from "#app/components/admin/format";
import { INTERVAL_WORDS, MEMBERSHIP_STATUS_LABELS } from "#app/components/admin/MembershipStatus";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/memberships";

const MEMBERSHIPS_PATH = "/app/admin/memberships";

/** GET /app/admin/memberships?status=…&after=…: every membership, newest first, a page at a time. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context);
  const params = new URL(request.url).searchParams;
  const filters = readMembershipFilters(params);
  const found = await listMembershipsForStaff(context.db, filters, { cursor: params.get("after") });
  const query = (status: string | null, after?: string) => {
    const next = new URLSearchParams();
    if (status) next.set("status", status);
    if (after) next.set("after", after);
    return `?${next}`;
  };
  const total = Object.values(found.counts).reduce((sum, n) => sum + n, 0);
  return {
    status: filters.status ?? "",
    tabs: [
      { label: "All", status: "", count: total, to: query(null) },
      ...MEMBERSHIP_STATUSES.map((status) => ({ label: MEMBERSHIP_STATUS_LABELS[status], status, count: found.counts[status], to: query(status) })),
    ],
    rows: found.rows.map((row) => ({
      id: row.id,
      created: utcTime(row.created),
      tier: row.tierName,
      page: row.pageEnding ? `${row.pageName} (/${row.pageEnding})` : row.pageName,
      creator: row.creatorEmail ?? "Account deleted",
      member: row.memberEmail ?? "Not provided",
      amount: `${formatMoney(row.amount, row.currency)} / ${INTERVAL_WORDS[row.interval]}`,
      status: MEMBERSHIP_STATUS_LABELS[row.status],
      periodEnd: row.currentPeriodEnd ? utcDate(row.currentPeriodEnd) : "—",
    })),
    nextPage: found.nextCursor ? query(filters.status, found.nextCursor) : null,
    firstPage: params.has("after") ? query(filters.status) : null,
  };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Memberships", noindex: true });

export default function Memberships({ loaderData }: Route.ComponentProps) {
  const { status, tabs, rows, nextPage, firstPage } = loaderData;
  return (
    <>
      <h1 className="text-3xl font-bold">Memberships</h1>
      <p className="mt-2 text-muted">
        Every membership on the platform, newest first. Each paid period is a payment of kind membership in{" "}
        <Link to="/app/admin/payments?kind=membership">Payments</Link>.
      </p>
      <nav aria-label="Memberships by status" className="mt-4">
        <ul className="flex flex-wrap gap-2">
          {tabs.map((tab) => (
            <li key={tab.label}>
              <Link
                to={`${MEMBERSHIPS_PATH}${tab.to}`}
                aria-current={tab.status === status ? "page" : undefined}
                className={`inline-block rounded-full border px-3 py-1 text-sm no-underline ${tab.status === status ? "border-ink bg-ink font-semibold text-white" : "border-black/20 hover:bg-black/5"}`}
              >
                {tab.label} ({tab.count})
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <DataTable
        caption="Memberships, newest first"
        empty="No memberships match this filter."
        rows={rows}
        rowKey={(r) => r.id}
        columns={[
          { header: "Joined (UTC)", cell: (r) => r.created },
          { header: "Tier", cell: (r) => r.tier },
          { header: "Page", cell: (r) => <span className="break-all">{r.page}</span> },
          { header: "Creator", cell: (r) => <span className="break-all">{r.creator}</span> },
          { header: "Member", cell: (r) => <span className="break-all">{r.member}</span> },
          { header: "Amount", cell: (r) => r.amount, numeric: true },
          { header: "Status", cell: (r) => r.status },
          { header: "Period ends", cell: (r) => r.periodEnd },
        ]}
      />
      <nav aria-label="Pages of memberships" className="mt-4 flex gap-4 text-sm">
        {firstPage && <Link to={`${MEMBERSHIPS_PATH}${firstPage}`}>Newest memberships</Link>}
        {nextPage && <Link to={`${MEMBERSHIPS_PATH}${nextPage}`}>Older memberships</Link>}
      </nav>
    </>
  );
}
