import { Link } from "react-router";
import { backOfficeSummary } from "#server/features/back-office/summary";
import { requireStaff } from "#server/domains/auth/staff-guard";
import { ADMIN_SECTIONS } from "#app/components/admin/sections";
import { utcDate, utcTime } from "#app/components/admin/format";
import { pageMeta } from "#page-kit/meta";
import { formatMoney } from "#isomorphic/format";
import type { Route } from "./+types/overview";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context);
  return { summary: await backOfficeSummary(context.db) };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Back office", noindex: true });

type Figure = { label: string; value: string; detail: string; to: string; attention: boolean };

const plural = (n: number, one: string, many: string) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

function figuresOf(summary: Route.ComponentProps["loaderData"]["summary"]): Figure[] {
  const { reports, disputes, reconciliation } = summary;
  return [
    {
      label: "Open reports",
      value: plural(reports.openItems, "item", "items"),
      detail: reports.oldestOpen ? `Oldest reported ${utcTime(reports.oldestOpen)}` : "Nothing waiting",
      to: "/app/admin/reports",
      attention: reports.openItems > 0,
    },
    {
      label: "Open disputes",
      value: plural(disputes.open, "dispute", "disputes"),
      detail: [
        disputes.nextDeadline ? `Next evidence due ${utcDate(disputes.nextDeadline)}` : "No deadline coming",
        disputes.flaggedCreators > 0 ? plural(disputes.flaggedCreators, "creator over 0.4 %", "creators over 0.4 %") : null,
      ]
        .filter(Boolean)
        .join(" · "),
      to: "/app/admin/disputes",
      attention: disputes.open > 0 || disputes.flaggedCreators > 0,
    },
    {
      label: "Disputed deals",
      value: plural(summary.dealDisputes.open, "deal", "deals"),
      detail: summary.dealDisputes.oldestOpen ? `Money frozen; oldest disputed ${utcTime(summary.dealDisputes.oldestOpen)}` : "Nothing waiting",
      to: "/app/admin/deals?state=disputed",
      attention: summary.dealDisputes.open > 0,
    },
    {
      label: "Money held for deals",
      value: summary.dealMoneyHeld.length > 0 ? summary.dealMoneyHeld.map((held) => formatMoney(held.amount, held.currency)).join(" · ") : formatMoney(0, "usd"),
      detail: "Paid by sponsors for booked deals, not yet released to creators or refunded",
      to: "/app/admin/deals?state=funded",
      attention: false,
    },
    {
      label: "Reconciliation",
      value: reconciliation ? plural(reconciliation.differences, "difference", "differences") : "Not run yet",
      detail: reconciliation ? `${plural(reconciliation.compared, "movement", "movements")} compared, ${utcTime(reconciliation.finishedAt)}` : "Runs daily at 03:10 UTC, or now from its page",
      to: "/app/admin/reconciliation",
      attention: reconciliation !== null && reconciliation.differences > 0,
    },
    {
      label: "Suspended accounts",
      value: plural(summary.suspensionsInForce, "account", "accounts"),
      detail: "Suspensions in force",
      to: "/app/admin/accounts",
      attention: false,
    },
    {
      label: "Removed content",
      value: plural(summary.removedItems, "item", "items"),
      detail: "Bio pages and opportunities taken down",
      to: "/app/admin/content",
      attention: false,
    },
  ];
}

export default function Overview({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <h1 className="text-3xl font-bold">Back office</h1>
      <p className="mt-2 text-muted">Run Sponsorgrid honestly: act on reports, see every payment, and keep the ledger in step with the provider. Every action here is written to the audit log.</p>
      <h2 className="mt-8 text-xl font-semibold">Needs attention</h2>
      <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {figuresOf(loaderData.summary).map((figure) => (
          <li key={figure.label} className={`rounded-lg p-4 ${figure.attention ? "border-2 border-amber-600" : "border"}`}>
            <Link to={figure.to} className="font-semibold">
              {figure.label}
            </Link>
            <p className="mt-1 text-2xl font-bold">{figure.value}</p>
            <p className="mt-1 text-sm text-muted">{figure.detail}</p>
          </li>
        ))}
      </ul>
      <h2 className="mt-10 text-xl font-semibold">Sections</h2>
      <ul className="mt-4 grid gap-4 sm:grid-cols-2">
        {ADMIN_SECTIONS.slice(1).map((section) => (
          <li key={section.path} className="rounded-lg border p-4">
            <Link to={section.path} className="font-semibold">
              {section.label}
            </Link>
            <p className="mt-1 text-sm text-muted">{section.description}</p>
          </li>
        ))}
      </ul>
    </>
  );
}
