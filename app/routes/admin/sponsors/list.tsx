import { Form, Link } from "react-router";
import { requireStaff } from "#server/domains/auth/staff-guard";
import { listStaffCompanies } from "#server/domains/sponsor-directory/curation";
import { listSearchMisses } from "#server/domains/sponsor-directory/search-misses";
import { MISS_PERIODS, parseMissPeriod } from "#isomorphic/sponsor-directory-links";
import { secondaryButton } from "#page-kit/forms";
import { DataTable } from "#app/components/admin/DataTable";
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
  const live = companies.filter((c) => !c.retiredAt);
  const liveSamples = live.filter((c) => c.sample).length;
  const liveReal = live.length - liveSamples;
  // Readers see the invented sample companies only while no real one exists (server/domains/sponsor-directory/shown.ts).
  const shownText =
    liveReal > 0
      ? `${liveReal} companies shown to Pro members${liveSamples ? ` (${liveSamples} sample companies hidden: samples show only while no real company exists)` : ""}`
      : `${liveSamples} sample companies shown to Pro members until you add a real company`;
  return (
    <>
      <h1 className="text-3xl font-bold">Sponsor directory</h1>
      <p className="mt-2 text-muted">
        {shownText}, {companies.length - live.length} retired. Every change here is written to the audit log.
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
        <DataTable
          caption={`Searches with no results, last ${days} days`}
          captionHidden
          empty={`No search came back empty in the last ${days} days.`}
          rows={misses}
          rowKey={(miss) => `${miss.kind}:${miss.text}`}
          columns={[
            { header: "Searched for", cell: (miss) => <span className="break-all">{miss.text}</span> },
            { header: "Kind", cell: (miss) => (miss.kind === "tag" ? "Tag" : "Name") },
            { header: "Searches", cell: (miss) => miss.count, numeric: true },
            { header: "Last searched", cell: (miss) => date(miss.lastSearched) },
          ]}
        />
      </section>

      <section aria-labelledby="companies-heading" className="mt-10">
        <h2 id="companies-heading" className="text-xl font-bold">
          Companies
        </h2>
        <DataTable
          caption="Companies in the directory, retired ones too"
          captionHidden
          empty="No companies yet: add one or import a CSV."
          rows={companies}
          rowKey={(company) => company.id}
          columns={[
            {
              header: "Name",
              cell: (company) => (
                <>
                  <Link to={`/app/admin/sponsors/${company.id}`}>{company.name}</Link>
                  {company.sample ? <span className="ml-2 text-xs text-muted">(sample)</span> : null}
                </>
              ),
            },
            { header: "Tags", cell: (company) => company.tags },
            { header: "Added", cell: (company) => <span className="whitespace-nowrap">{date(company.addedAt)}</span> },
            { header: "Status", cell: (company) => (company.retiredAt ? `Retired ${date(company.retiredAt)}` : "Shown") },
          ]}
        />
      </section>
    </>
  );
}
