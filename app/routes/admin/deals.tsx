import { Form, Link } from "react-router";
import { requireStaff } from "#server/domains/auth/staff-guard";
import { listDealsForStaff, readDealFilters } from "#server/features/back-office/deals";
import { formatMoney } from "#server/domains/payments/ledger/money";
import { DEAL_STATES } from "#server/platform/db/schema";
import { DataTable } from "#app/components/admin/DataTable";
import { utcTime } from "#app/components/admin/format";
import { primaryButton } from "#page-kit/forms";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/deals";

const DEALS_PATH = "/app/admin/deals";

/** GET /app/admin/deals?state=…&q=…&after=…: every deal, newest activity first, a page at a time. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context);
  const params = new URL(request.url).searchParams;
  const filters = readDealFilters(params);
  const found = await listDealsForStaff(context.db, filters, { cursor: params.get("after") });
  const query = (state: string | null, after?: string) => {
    const next = new URLSearchParams();
    if (state) next.set("state", state);
    if (filters.search) next.set("q", filters.search);
    if (after) next.set("after", after);
    return `?${next}`;
  };
  const total = Object.values(found.counts).reduce((sum, n) => sum + n, 0);
  return {
    state: filters.state ?? "",
    states: [...DEAL_STATES],
    search: filters.search ?? "",
    tabs: [{ label: "All", state: "", count: total, to: query(null) }, ...DEAL_STATES.map((state) => ({ label: state, state, count: found.counts[state], to: query(state) }))],
    rows: found.rows.map((row) => ({
      id: row.id,
      title: row.title,
      state: row.state,
      creator: row.creatorEmail ?? "Account deleted",
      sponsor: row.sponsorEmail ?? "Account deleted",
      price: formatMoney(row.price, row.currency),
      updated: utcTime(row.updatedAt),
    })),
    nextPage: found.nextCursor ? query(filters.state, found.nextCursor) : null,
    firstPage: params.has("after") ? query(filters.state) : null,
  };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Deals", noindex: true });

const field = "mt-1 block w-full rounded-md border border-black/25 px-2 py-1.5";

export default function Deals({ loaderData }: Route.ComponentProps) {
  const { state, states, search, tabs, rows, nextPage, firstPage } = loaderData;
  return (
    <>
      <h1 className="text-3xl font-bold">Deals</h1>
      <p className="mt-2 text-muted">Every deal between a creator and a sponsor: its terms and every move, for whoever reviews a dispute.</p>
      <nav aria-label="Deals by state" className="mt-4">
        <ul className="flex flex-wrap gap-2">
          {tabs.map((tab) => (
            <li key={tab.label}>
              <Link
                to={tab.to}
                aria-current={tab.state === state ? "page" : undefined}
                className={`inline-block rounded-full border px-3 py-1 text-sm capitalize no-underline ${tab.state === state ? "border-ink bg-ink font-semibold text-white" : "border-black/20 hover:bg-black/5"}`}
              >
                {tab.label} ({tab.count})
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <Form method="get" role="search" aria-label="Filter deals" className="mt-6 grid gap-3 sm:grid-cols-[12rem_1fr_auto] sm:items-end">
        <div>
          <label htmlFor="deal-state" className="block text-sm font-semibold">
            State
          </label>
          <select id="deal-state" name="state" defaultValue={state} className={field}>
            <option value="">Any</option>
            {states.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
        <label className="block text-sm font-semibold">
          Title or party email
          <input type="search" name="q" defaultValue={search} autoComplete="off" className={field} />
        </label>
        <div className="flex items-end gap-2">
          <button type="submit" className={primaryButton}>
            Filter
          </button>
          <Link to={DEALS_PATH} className="px-2 py-2 text-sm">
            Clear filters
          </Link>
        </div>
      </Form>
      <DataTable
        caption="Deals, newest activity first"
        empty="No deals match these filters."
        rows={rows}
        rowKey={(r) => r.id}
        columns={[
          { header: "Title", cell: (r) => <Link to={`${DEALS_PATH}/${encodeURIComponent(r.id)}`}>{r.title}</Link> },
          { header: "Creator", cell: (r) => <span className="break-all">{r.creator}</span> },
          { header: "Sponsor", cell: (r) => <span className="break-all">{r.sponsor}</span> },
          { header: "State", cell: (r) => r.state },
          { header: "Latest price", cell: (r) => r.price, numeric: true },
          { header: "Last activity", cell: (r) => r.updated },
        ]}
      />
      <nav aria-label="Pages of deals" className="mt-4 flex gap-4 text-sm">
        {firstPage && <Link to={firstPage}>Newest deals</Link>}
        {nextPage && <Link to={nextPage}>Older deals</Link>}
      </nav>
    </>
  );
}
