import type { InputHTMLAttributes } from "react";
import { Form, Link } from "react-router";
import { requireStaff } from "#server/domains/auth/staff-guard";
import { allPayments, PAYMENT_KIND_CHOICES, readPaymentFilters } from "#server/domains/payments/records/all-payments";
import { formatMoney } from "#server/domains/payments/ledger/money";
import { SPONSOR_SESSION_STATUSES } from "#server/platform/db/schema";
import { DataTable } from "#app/components/admin/DataTable";
import { PaymentsHeading, PAYMENTS_PATH } from "#app/components/admin/PaymentsTabs";
import { dateTimeFormat } from "#isomorphic/format";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/payments";

/** GET /app/admin/payments: every sponsor payment, filtered by the address's query, a page at a time. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context);
  const params = new URL(request.url).searchParams;
  const { filters, problems } = readPaymentFilters(params);
  const found = await allPayments(context.db, filters, params.get("after"));
  const money = (minor: number, currency: string) => formatMoney(minor, currency);
  const next = new URLSearchParams(params);
  next.set("after", found.nextCursor ?? "");
  const first = new URLSearchParams(params);
  first.delete("after");
  return {
    query: Object.fromEntries(["status", "kind", "creator", "from", "to", "min", "max", "id"].map((name) => [name, params.get(name) ?? ""])),
    problems,
    statuses: [...SPONSOR_SESSION_STATUSES],
    kinds: [...PAYMENT_KIND_CHOICES],
    rows: found.rows.map((row) => ({
      id: row.id,
      created: row.created,
      status: row.status,
      kind: PAYMENT_KIND_CHOICES.find((choice) => choice.kind === row.kind)?.label ?? row.kind,
      amount: money(row.amount, row.currency),
      creator: row.creatorEmail ?? "Account deleted",
      page: row.pageEnding,
      sponsor: row.sponsorEmail ?? "Not provided",
      net: row.money.map((m) => money(m.net, m.currency)).join(", ") || "—",
    })),
    totals: found.totals.map((t) => ({
      currency: t.currency.toUpperCase(),
      gross: money(t.gross, t.currency),
      providerFee: money(t.providerFee, t.currency),
      platformFee: money(t.platformFee, t.currency),
      net: money(t.net, t.currency),
    })),
    nextPage: found.nextCursor ? `?${next}` : null,
    firstPage: params.has("after") ? `?${first}` : null,
  };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Payments", noindex: true });

const field = "mt-1 block w-full rounded-md border border-black/25 px-2 py-1.5";
const label = "block text-sm font-semibold";
const when = (date: Date) => dateTimeFormat("en-US", "mediumDateTimeUtc").format(new Date(date));

/** One text filter: its words, then the box (a wide one spans two columns). */
function FilterField({ label: words, wide = false, ...input }: InputHTMLAttributes<HTMLInputElement> & { label: string; wide?: boolean }) {
  return (
    <label className={wide ? `${label} sm:col-span-2` : label}>
      {words}
      <input {...input} className={field} />
    </label>
  );
}

export default function AllPayments({ loaderData }: Route.ComponentProps) {
  const { query, problems, statuses, kinds, rows, totals, nextPage, firstPage } = loaderData;
  return (
    <>
      <PaymentsHeading />
      <Form method="get" className="mt-6 grid gap-3 sm:grid-cols-2 lg:grid-cols-4" aria-label="Filter payments">
        <label className={label}>
          Status
          <select name="status" defaultValue={query.status} className={field}>
            <option value="">Any</option>
            {statuses.map((status) => (
              <option key={status} value={status}>
                {status}
              </option>
            ))}
          </select>
        </label>
        <label className={label}>
          Kind
          <select name="kind" defaultValue={query.kind} className={field}>
            <option value="">Any</option>
            {kinds.map((choice) => (
              <option key={choice.kind} value={choice.kind}>
                {choice.label}
              </option>
            ))}
          </select>
        </label>
        <FilterField label="Creator (email or page ending)" name="creator" defaultValue={query.creator} autoComplete="off" />
        <FilterField label="From (UTC)" name="from" type="date" defaultValue={query.from} />
        <FilterField label="To (UTC)" name="to" type="date" defaultValue={query.to} />
        <FilterField label="Minimum amount" name="min" inputMode="decimal" defaultValue={query.min} placeholder="10.00" />
        <FilterField label="Maximum amount" name="max" inputMode="decimal" defaultValue={query.max} placeholder="500.00" />
        <FilterField label="Payment, checkout, charge, refund or dispute id" wide name="id" defaultValue={query.id} autoComplete="off" spellCheck={false} />
        <div className="flex items-end gap-2 sm:col-span-2 lg:col-span-4">
          <button type="submit" className="rounded-full bg-primary px-4 py-2 text-sm font-semibold text-white">
            Filter
          </button>
          <Link to={PAYMENTS_PATH} className="px-2 py-2 text-sm">
            Clear filters
          </Link>
        </div>
      </Form>
      {problems.length > 0 && (
        <ul role="alert" className="mt-4 list-disc rounded-md border border-red-700/40 bg-red-50 p-3 pl-8 text-sm text-red-800">
          {problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      )}
      <DataTable
        caption="Totals of the filtered payments, from the ledger"
        empty="No money moved in the filtered payments."
        rows={totals}
        rowKey={(t) => t.currency}
        columns={[
          { header: "Currency", cell: (t) => t.currency },
          { header: "Gross", cell: (t) => t.gross, numeric: true },
          { header: "Provider fees", cell: (t) => t.providerFee, numeric: true },
          { header: "Platform fee earned", cell: (t) => t.platformFee, numeric: true },
          { header: "Net to creators", cell: (t) => t.net, numeric: true },
        ]}
      />
      <DataTable
        caption="Payments, newest first"
        empty="No payments match these filters."
        rows={rows}
        rowKey={(r) => r.id}
        columns={[
          { header: "Date (UTC)", cell: (r) => <Link to={`${PAYMENTS_PATH}/${encodeURIComponent(r.id)}`}>{when(r.created)}</Link> },
          { header: "Status", cell: (r) => r.status },
          { header: "Amount", cell: (r) => r.amount, numeric: true },
          { header: "Net to creator", cell: (r) => r.net, numeric: true },
          { header: "Creator", cell: (r) => (r.page ? `${r.creator} (/${r.page})` : r.creator) },
          { header: "Sponsor", cell: (r) => r.sponsor },
          { header: "Kind", cell: (r) => r.kind },
        ]}
      />
      <nav aria-label="Pages of payments" className="mt-4 flex gap-4 text-sm">
        {firstPage && <Link to={firstPage}>Newest payments</Link>}
        {nextPage && <Link to={nextPage}>Older payments</Link>}
      </nav>
    </>
  );
}
