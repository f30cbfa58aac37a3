import { requireStaff } from "#server/domains/auth/staff-guard";
import { proMembershipList } from "#server/domains/payments/records/platform-money";
import { DataTable } from "#app/components/admin/DataTable";
import { CappedListNote } from "#app/components/admin/AdminPageParts";
import { capPlatformList } from "#app/lib/platform-list.server";
import { PaymentsHeading } from "#app/components/admin/PaymentsTabs";
import { dateTimeFormat } from "#isomorphic/format";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/payments-pro";

/** GET /app/admin/payments/pro: every Pro membership, latest change first. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context);
  const rows = await proMembershipList(context.db);
  return capPlatformList(rows);
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Pro memberships", noindex: true });

export default function ProMemberships({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <PaymentsHeading />
      <DataTable
        caption="Pro memberships, latest change first"
        empty="Nobody has a Pro membership."
        rows={loaderData.rows}
        rowKey={(r) => r.uid}
        columns={[
          { header: "Person", cell: (r) => `${r.name} <${r.email}>` },
          { header: "Plan", cell: (r) => (r.billingPlan ? `${r.plan} (still billing ${r.billingPlan})` : r.plan) },
          { header: "Status", cell: (r) => (r.cancelAtPeriodEnd ? `${r.status}, ends at period end` : r.status) },
          { header: "Period ends (UTC)", cell: (r) => (r.currentPeriodEnd ? dateTimeFormat("en-US", "mediumDateTimeUtc").format(new Date(r.currentPeriodEnd)) : "—") },
          { header: "Provider customer", cell: (r) => <span className="break-all font-mono">{r.providerCustomerId ?? "—"}</span> },
        ]}
      />
      <CappedListNote more={loaderData.more} shown={loaderData.rows.length} order="latest" />
    </>
  );
}
