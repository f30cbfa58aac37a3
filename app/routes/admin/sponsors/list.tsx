import { Form, Link } from "react-router";
import { requireStaff } from "#server/auth/staff-guard";
import { listStaffCompanies } from "#server/sponsor-directory/curation";
import { listSearchMisses, MISS_PERIODS, parseMissPeriod } from "#server/sponsor-directory/search-misses";
import { secondaryButton } from "#page-kit/forms";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/list";

/** The directory as staff see it: every company, retired ones too, and what Pro members failed to find. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context);
  const days = parseMissPeriod(new URL(request.url).searchParams.get("days"));
  const [companies, misses] = await Promise.all([listStaffCompanies(context.db), listSearchMisses(context.db, days)]);
  return { companies: companies.map(({ id, flat, addedAt, retiredAt, sample }) => ({ id, name: flat.name, tags: flat.tags, addedAt, retiredAt, sample })), misses, days };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Sponsor directory · Back office", noindex: true });

const date = (iso: string) => iso.slice(0, 10);

export default function SponsorDirectoryAdmin({ loaderData }: Route.ComponentProps) {
  const { companies, misses, days } = loaderData;
  const live = companies.filter((c) => !c.retiredAt).length;
  return (
    <>
      <h1 className="text-3xl font-bold">Sponsor directory</h1>
      <p className="mt-2 text-muted">
        {live} companies shown to Pro members, {companies.length - live} retired. Every change here is written to the audit log.
      </p>
      <div className="mt-4 flex flex-wrap gap-3">
        <Link to="/app/admin/sponsors/new" className={secondaryButton}>
          Add a company
        </Link>
        <Link to="/app/admin/sponsors/import" className={secondaryButton}>
          Import CSV
        </Link>
        <a href="/app/admin/sponsors/export.csv" className={secondaryButton} download>
          Export CSV
        </a>
      </div>

      <section aria-labelledby="misses-heading" className="mt-10">
        <h2 id="misses-heading" className="text-xl font-bold">
          What Pro members search for and do not find
        </h2>
        <Form method="get" className="mt-3 flex flex-wrap items-end gap-3">
          <label className="text-sm">
            Period{" "}
            <select name="days" defaultValue={days} className="ml-1 rounded-lg border border-ink/25 px-2 py-1.5">
              {MISS_PERIODS.map((d) => (
                <option key={d} value={d}>
                  Last {d} days
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="rounded-full border border-ink/25 px-4 py-1.5 text-sm">
            Show
          </button>
        </Form>
        {misses.length === 0 ? (
          <p className="mt-3">No search came back empty in the last {days} days.</p>
        ) : (
          <div className="mt-3 overflow-x-auto">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Searches with no results, last {days} days</caption>
              <thead>
                <tr className="border-b">
                  <th scope="col" className="py-2 pr-4">Searched for</th>
                  <th scope="col" className="py-2 pr-4">Kind</th>
                  <th scope="col" className="py-2 pr-4 text-right">Searches</th>
                  <th scope="col" className="py-2">Last searched</th>
                </tr>
              </thead>
              <tbody>
                {misses.map((miss) => (
                  <tr key={`${miss.kind}:${miss.text}`} className="border-b border-ink/10">
                    <td className="break-all py-2 pr-4">{miss.text}</td>
                    <td className="py-2 pr-4">{miss.kind === "tag" ? "Tag" : "Name"}</td>
                    <td className="py-2 pr-4 text-right tabular-nums">{miss.count}</td>
                    <td className="py-2">{date(miss.lastSearched)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section aria-labelledby="companies-heading" className="mt-10">
        <h2 id="companies-heading" className="text-xl font-bold">
          Companies
        </h2>
        <div className="mt-3 overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead>
              <tr className="border-b">
                <th scope="col" className="py-2 pr-4">Name</th>
                <th scope="col" className="py-2 pr-4">Tags</th>
                <th scope="col" className="py-2 pr-4">Added</th>
                <th scope="col" className="py-2">Status</th>
              </tr>
            </thead>
            <tbody>
              {companies.map((company) => (
                <tr key={company.id} className="border-b border-ink/10">
                  <td className="py-2 pr-4">
                    <Link to={`/app/admin/sponsors/${company.id}`}>{company.name}</Link>
                    {company.sample ? <span className="ml-2 text-xs text-muted">(sample)</span> : null}
                  </td>
                  <td className="py-2 pr-4">{company.tags}</td>
                  <td className="whitespace-nowrap py-2 pr-4">{date(company.addedAt)}</td>
                  <td className="py-2">{company.retiredAt ? `Retired ${date(company.retiredAt)}` : "Shown"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </>
  );
}
