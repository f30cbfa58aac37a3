import { Form, Link, useSearchParams } from "react-router";
import { requireStaff } from "#server/domains/auth/staff-guard";
import { searchAccounts } from "#server/domains/staff/accounts";
import { pageMeta } from "#page-kit/meta";
import { primaryButton } from "#page-kit/forms";
import { utcDate } from "#app/components/admin/format";
import { NextPageLink } from "#app/components/admin/AdminPageParts";
import type { Route } from "./+types/accounts";

/** GET /app/admin/accounts?q=…&after=…: find an account by email or name, twenty at a time. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context);
  const url = new URL(request.url);
  return searchAccounts(context.db, { q: url.searchParams.get("q") ?? "", after: url.searchParams.get("after") });
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Accounts", noindex: true });

export default function Accounts({ loaderData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const q = params.get("q") ?? "";
  const nextParams = new URLSearchParams({ ...(q ? { q } : {}), ...(loaderData.next ? { after: loaderData.next } : {}) });
  return (
    <>
      <h1 className="text-3xl font-bold">Accounts</h1>
      <p className="mt-2 text-muted">Find an account by email or name to see it, suspend it or lift its suspension.</p>
      <Form method="get" role="search" className="mt-6 flex flex-wrap items-end gap-3">
        <div className="min-w-0 flex-1">
          <label htmlFor="account-search" className="block font-medium">
            Email or name
          </label>
          <input id="account-search" type="search" name="q" defaultValue={q} className="mt-1 block w-full rounded-lg border border-ink/25 px-3 py-2.5 text-base" />
        </div>
        <button type="submit" className={primaryButton}>
          Search
        </button>
      </Form>
      {loaderData.rows.length === 0 ? (
        <p className="mt-6">No account matches.</p>
      ) : (
        <ul className="mt-6 divide-y rounded-lg border" aria-label="Accounts found">
          {loaderData.rows.map((row) => (
            <li key={row.id} className="flex flex-wrap items-baseline justify-between gap-2 p-4">
              <div className="min-w-0">
                <Link to={`/app/admin/accounts/${encodeURIComponent(row.id)}`} className="break-all font-semibold">
                  {row.email}
                </Link>
                <p className="text-sm text-muted">
                  {row.name} · joined {utcDate(row.createdAt)}
                </p>
              </div>
              <p className="flex gap-2 text-sm">
                {row.role === "admin" ? <span className="rounded bg-ink px-2 py-0.5 text-white">Staff</span> : null}
                {row.disabled ? <span className="rounded bg-red-700 px-2 py-0.5 text-white">Disabled</span> : null}
              </p>
            </li>
          ))}
        </ul>
      )}
      <NextPageLink to={loaderData.next ? `?${nextParams.toString()}` : null}>Next page</NextPageLink>
    </>
  );
}
