import { Link } from "react-router";
import { requireStaff } from "#server/domains/auth/staff-guard";
import { disputeQueue, DISPUTE_FLAG_MINIMUM, DISPUTE_RATIO_LIMIT, DISPUTE_WINDOW_DAYS } from "#server/domains/payments/disputes/dispute-queue";
import { formatMoney } from "#server/domains/payments/ledger/money";
import { DataTable } from "#app/components/admin/DataTable";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/disputes";

const STATUS_LABELS = { needs_response: "Needs response", under_review: "Under review", won: "Won", lost: "Lost" } as const;
const day = (date: Date) => date.toISOString().slice(0, 10);

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context);
  const queue = await disputeQueue(context.db);
  return {
    rule: `A creator is flagged when, over the last ${DISPUTE_WINDOW_DAYS} days, their disputes exceed ${DISPUTE_RATIO_LIMIT * 100} % of their payments (at least ${DISPUTE_FLAG_MINIMUM} disputes).`,
    disputes: queue.map((d) => ({
      id: d.id,
      sessionId: d.sessionId,
      open: d.status === "needs_response" || d.status === "under_review",
      status: STATUS_LABELS[d.status],
      amount: formatMoney(d.amount, d.currency),
      fee: formatMoney(d.providerFee, d.currency),
      reason: d.reason.replaceAll("_", " "),
      dueBy: d.evidenceDueBy ? day(d.evidenceDueBy) : null,
      opened: day(d.openedAt),
      creator: d.creator ? `${d.creator.name} <${d.creator.email}>` : "Deleted account",
      flag: d.creatorFlag ? `Flagged: ${d.creatorFlag.disputes} disputes / ${d.creatorFlag.payments} payments` : null,
    })),
  };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Disputes", noindex: true });

export default function Disputes({ loaderData }: Route.ComponentProps) {
  const { disputes, rule } = loaderData;
  return (
    <>
      <h1 className="text-3xl font-bold">Disputes</h1>
      <p className="mt-2 text-muted">Chargebacks from the payment provider: open ones first, the nearest evidence deadline first. {rule}</p>
      <div className="mt-2">
        <DataTable
          caption="Disputes, open first by evidence deadline"
          captionHidden
          empty="No disputes."
          rows={disputes}
          rowKey={(d) => d.id}
          columns={[
            { header: "Evidence due", cell: (d) => (d.open ? (d.dueBy ?? "Not given") : "Closed") },
            { header: "Status", cell: (d) => <span className="font-semibold">{d.status}</span> },
            { header: "Amount", cell: (d) => d.amount, numeric: true },
            { header: "Dispute fee", cell: (d) => d.fee, numeric: true },
            { header: "Reason", cell: (d) => d.reason },
            {
              header: "Creator",
              cell: (d) => (
                <>
                  {d.creator}
                  {d.flag ? <span className="ml-1 inline-block rounded-full bg-red-100 px-2 text-xs font-semibold text-red-900">{d.flag}</span> : null}
                </>
              ),
            },
            {
              header: "Payment",
              cell: (d) => (
                <Link to={`/app/admin/payments/${d.sessionId}`} aria-label={`Payment ${d.sessionId}, dispute ${d.id}`}>
                  {d.sessionId}
                </Link>
              ),
            },
          ]}
        />
      </div>
    </>
  );
}
