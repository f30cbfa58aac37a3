import { requireStaff } from "#server/domains/auth/staff-guard";
import { platformFeeByMonth } from "#server/domains/payments/records/platform-money";
import { formatMoney } from "#server/domains/payments/ledger/money";
import { DataTable } from "#app/components/admin/DataTable";
import { PaymentsHeading } from "#app/components/admin/PaymentsTabs";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/payments-fees";

/** GET /app/admin/payments/fees: the platform's fee earned, by UTC month and currency, from the ledger. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context);
  const months = await platformFeeByMonth(context.db);
  return {
    rows: months.map((m) => ({
      key: `${m.month}-${m.currency}`,
      month: m.month,
      currency: m.currency.toUpperCase(),
      platformFee: formatMoney(m.platformFee, m.currency),
      providerFee: formatMoney(m.providerFee, m.currency),
      margin: formatMoney(m.margin, m.currency),
    })),
  };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Platform fee", noindex: true });

export default function PlatformFee({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <PaymentsHeading />
      <p className="mt-4 text-sm text-muted">The platform fee kept (fees returned with refunds and disputes taken off), the card processor's fees the platform paid, and what is left.</p>
      <DataTable
        caption="Platform fee earned by month (UTC)"
        empty="No money has moved yet."
        rows={loaderData.rows}
        rowKey={(r) => r.key}
        columns={[
          { header: "Month", cell: (r) => r.month },
          { header: "Currency", cell: (r) => r.currency },
          { header: "Platform fee earned", cell: (r) => r.platformFee, numeric: true },
          { header: "Provider fees", cell: (r) => r.providerFee, numeric: true },
          { header: "Margin", cell: (r) => r.margin, numeric: true },
        ]}
      />
    </>
  );
}
