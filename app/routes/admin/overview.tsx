import { Link } from "react-router";
import { requireStaff } from "#server/staff/guard";
import { ADMIN_SECTIONS } from "#app/components/admin/sections";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/overview";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context);
  return {};
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Back office", noindex: true });

export default function Overview() {
  return (
    <>
      <h1 className="text-3xl font-bold">Back office</h1>
      <p className="mt-2 text-muted">Run Sponsorgrid honestly: act on reports, see every payment, and keep the ledger in step with the provider. Every action here is written to the audit log.</p>
      <ul className="mt-6 grid gap-4 sm:grid-cols-2">
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
