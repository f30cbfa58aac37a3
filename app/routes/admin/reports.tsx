import { Link, NavLink } from "react-router";
import { requireStaff } from "#server/domains/auth/staff-guard";
import { listReportQueue } from "#server/domains/moderation/queue";
import { isReportStatus, REPORT_STATUSES } from "#isomorphic/report-reasons";
import { ageText, ItemLink } from "#app/components/admin/ItemLink";
import { DataTable } from "#app/components/admin/DataTable";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/reports";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context);
  const asked = new URL(request.url).searchParams.get("status") ?? "open";
  const status = isReportStatus(asked) ? asked : "open";
  const rows = await listReportQueue(context.db, status);
  return {
    status,
    bioOrigin: context.config.BIO_ORIGIN,
    rows: rows.map((row) => ({ reports: row.reports, reasons: row.reasons, age: `${ageText((status === "open" ? row.oldest : (row.resolvedAt ?? row.oldest)).toISOString())} ago`, item: { type: row.item.type, id: row.item.id, title: row.item.title, address: row.item.address, removed: row.item.removedAt !== null } })),
  };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Reports", noindex: true });

const TAB_LABELS = { open: "Open", actioned: "Actioned", dismissed: "Dismissed" } as const;

export default function Reports({ loaderData }: Route.ComponentProps) {
  const { status, rows, bioOrigin } = loaderData;
  return (
    <>
      <h1 className="text-3xl font-bold">Reports</h1>
      <p className="mt-2 text-muted">One row per reported item. Open an item to read each report and remove it or dismiss its reports, with a reason.</p>
      <nav aria-label="Report status" className="mt-6">
        <ul className="flex gap-2">
          {REPORT_STATUSES.map((tab) => (
            <li key={tab}>
              <NavLink
                to={`?status=${tab}`}
                aria-current={tab === status ? "page" : undefined}
                className={`block rounded-full border px-4 py-1.5 text-sm no-underline ${tab === status ? "bg-ink text-white" : "hover:bg-black/5"}`}
              >
                {TAB_LABELS[tab]}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="mt-2">
        <DataTable
          caption={`${TAB_LABELS[status]} reports, one row per item`}
          captionHidden
          empty={`No ${TAB_LABELS[status].toLowerCase()} reports.`}
          rows={rows}
          rowKey={(row) => `${row.item.type}:${row.item.id}`}
          columns={[
            {
              header: "Item",
              cell: (row) => (
                <>
                  <ItemLink item={row.item} bioOrigin={bioOrigin} />
                  {row.item.removed ? <span className="ml-2 rounded bg-red-50 px-1.5 text-xs text-red-800">removed</span> : null}
                </>
              ),
            },
            { header: "Reports", cell: (row) => row.reports, numeric: true },
            { header: "Reasons", cell: (row) => row.reasons.join(", ") },
            { header: status === "open" ? "Oldest open" : "Decided", cell: (row) => row.age },
            {
              header: "Review",
              cell: (row) => (
                <Link to={`/app/admin/reports/${row.item.type}/${encodeURIComponent(row.item.id)}`} aria-label={`Review reports of ${row.item.title}`}>
                  Review
                </Link>
              ),
            },
          ]}
        />
      </div>
    </>
  );
}
