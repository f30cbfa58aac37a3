import { Link } from "react-router";
import type { AccountOverview } from "#server/features/back-office/account-overview";
import { formatMoney } from "#isomorphic/format";
import { DataTable } from "./DataTable";
import { utcDate } from "./format";

type Money = AccountOverview["money"][number];

const MONEY_COLUMNS: { header: string; figure: keyof Omit<Money, "currency"> }[] = [
  { header: "Received", figure: "received" },
  { header: "Refunded or disputed", figure: "refunded" },
  { header: "Net", figure: "net" },
  { header: "Held in deals", figure: "heldInDeals" },
  { header: "Platform fees", figure: "platformFees" },
  { header: "Paid out", figure: "paidOut" },
];

const percent = (ratio: number) => `${(ratio * 100).toFixed(2)} %`;

/** The account's money, its card dispute ratio and the open reports against its pages: what staff weigh before acting on it. */
export function AccountStanding({ overview }: { overview: AccountOverview }) {
  const { money, disputes, reports } = overview;
  return (
    <>
      <section aria-labelledby="money-heading" className="mt-8 max-w-3xl">
        <h2 id="money-heading" className="text-xl font-semibold">
          Money
        </h2>
        <p className="mt-1 text-sm text-muted">
          From the ledger, since the account began: tips and sponsorships paid to it, and deals it is the creator of. Net is what was received less what went back; it
          is what was paid out to their payout account, plus what is held in booked deals, plus the platform's fees.
        </p>
        <DataTable
          caption="Money by currency"
          captionHidden
          empty="No money received yet."
          rows={money}
          rowKey={(row) => row.currency}
          columns={[
            { header: "Currency", cell: (row) => row.currency.toUpperCase() },
            ...MONEY_COLUMNS.map(({ header, figure }) => ({ header, cell: (row: Money) => formatMoney(row[figure], row.currency), numeric: true })),
          ]}
        />
      </section>

      <section aria-labelledby="dispute-heading" className="mt-8 max-w-3xl">
        <h2 id="dispute-heading" className="text-xl font-semibold">
          Card disputes
        </h2>
        <p className="mt-2" data-testid="dispute-ratio">
          <strong>{percent(disputes.ratio)}</strong> over the last {disputes.windowDays} days: {disputes.disputes} {disputes.disputes === 1 ? "dispute" : "disputes"} opened on{" "}
          {disputes.payments} successful {disputes.payments === 1 ? "payment" : "payments"}.
          {disputes.flagged ? <strong className="ml-1 text-red-700">Flagged: above the card networks' 0.4 % warning line.</strong> : null}
        </p>
      </section>

      <section aria-labelledby="reports-heading" className="mt-8 max-w-3xl">
        <h2 id="reports-heading" className="text-xl font-semibold">
          Open reports
        </h2>
        {reports.length === 0 ? (
          <p className="mt-2 text-muted">No open reports against its bio pages or opportunities.</p>
        ) : (
          <ul aria-labelledby="reports-heading" className="mt-2 space-y-2">
            {reports.map((item) => (
              <li key={`${item.type}:${item.id}`} className="rounded-lg border p-3 text-sm">
                <span className="text-xs font-semibold uppercase tracking-wide text-muted">{item.type === "bio_page" ? "Bio page" : "Opportunity"}</span>{" "}
                <Link to={`/app/admin/reports/${item.type}/${encodeURIComponent(item.id)}`} className="break-words font-semibold">
                  {item.title}
                </Link>
                <span className="block text-muted">
                  {item.reports} open {item.reports === 1 ? "report" : "reports"} ({item.reasons.join(", ")}), the first on {utcDate(item.oldest)}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
