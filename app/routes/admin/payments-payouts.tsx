import { requireStaff } from "#server/domains/auth/staff-guard";
import { payoutAccountList } from "#server/domains/payments/records/platform-money";
import { DataTable } from "#app/components/admin/DataTable";
import { CappedListNote } from "#app/components/admin/AdminPageParts";
import { capPlatformList } from "#app/lib/platform-list.server";
import { PaymentsHeading } from "#app/components/admin/PaymentsTabs";
import { dateTimeFormat } from "#isomorphic/format";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/payments-payouts";

/** GET /app/admin/payments/payouts: creators' payout accounts at the provider and where their setup stands. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context);
  const rows = await payoutAccountList(context.db);
  return capPlatformList(rows);
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Payout accounts", noindex: true });

const STATE = { none: "Not made at the provider", incomplete: "Setup unfinished", complete: "Can take payments" } as const;

export default function PayoutAccounts({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <PaymentsHeading />
      <DataTable
        caption="Payout accounts, newest first"
        empty="No creator has started a payout account."
        rows={loaderData.rows}
        rowKey={(r) => r.uid}
        columns={[
          { header: "Owner", cell: (r) => `${r.name} <${r.email}>` },
          { header: "Status", cell: (r) => STATE[r.state] },
          { header: "Type", cell: (r) => r.accountType },
          { header: "Provider account", cell: (r) => <span className="break-all font-mono">{r.providerAccountId ?? "—"}</span> },
          { header: "Started (UTC)", cell: (r) => dateTimeFormat("en-US", "mediumDateTimeUtc").format(new Date(r.created)) },
        ]}
      />
      <CappedListNote more={loaderData.more} shown={loaderData.rows.length} order="newest" />
    </>
  );
}
