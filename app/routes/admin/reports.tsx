import { Link, NavLink } from "react-router";
import { requireStaff } from "#server/auth/staff-guard";
import { isReportStatus, listReportQueue, REPORT_STATUSES } from "#server/moderation/queue";
import { ageText, ItemLink } from "#app/components/admin/ItemLink";
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
      {rows.length === 0 ? (
        <p className="mt-6">{`No ${TAB_LABELS[status].toLowerCase()} reports.`}</p>
      ) : (
        <div className="mt-6 overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">{`${TAB_LABELS[status]} reports, one row per item`}</caption>
            <thead>
              <tr className="border-b">
                <th scope="col" className="py-2 pr-4">Item</th>
                <th scope="col" className="py-2 pr-4">Reports</th>
                <th scope="col" className="py-2 pr-4">Reasons</th>
                <th scope="col" className="py-2 pr-4">{status === "open" ? "Oldest open" : "Decided"}</th>
                <th scope="col" className="py-2">Review</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={`${row.item.type}:${row.item.id}`} className="border-b align-top">
                  <td className="py-2 pr-4">
                    <ItemLink item={row.item} bioOrigin={bioOrigin} />
                    {row.item.removed ? <span className="ml-2 rounded bg-red-50 px-1.5 text-xs text-red-800">removed</span> : null}
                  </td>
                  <td className="py-2 pr-4">{row.reports}</td>
                  <td className="py-2 pr-4">{row.reasons.join(", ")}</td>
                  <td className="py-2 pr-4">{row.age}</td>
                  <td className="py-2">
                    <Link to={`/app/admin/reports/${row.item.type}/${encodeURIComponent(row.item.id)}`} aria-label={`Review reports of ${row.item.title}`}>
                      Review
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
