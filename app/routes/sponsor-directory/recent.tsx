import { Link } from "react-router";
import { directoryHref, RECENT_PATH, SPONSORS_PATH } from "#isomorphic/sponsor-directory-links";
import { listRecentSponsors } from "#server/domains/sponsor-directory/list";
import { parseDirectoryQuery } from "#server/domains/sponsor-directory/query";
import { requirePro } from "#server/domains/pro/guards";
import { Pager } from "#app/components/sponsor-directory/Pager";
import { SampleNoticeFor, SponsorBlurbCards } from "#app/components/sponsor-directory/SponsorCards";
import { localeFrom } from "#isomorphic/format";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/recent";

/** Recently added sponsors (SPEC recents): Pro only; anyone else goes to the Pro page (SPEC §8). */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requirePro(request, context);
  const { query } = parseDirectoryQuery(new URL(request.url).searchParams, new Set());
  return { ...(await listRecentSponsors(context.db, query.page)), locale: localeFrom(request.headers.get("Accept-Language")) };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Recently Added Sponsors", noindex: true });

export default function RecentSponsors({ loaderData }: Route.ComponentProps) {
  const { items, page, hasPrevious, hasNext, locale } = loaderData;
  const added = (sponsor: { addedAt?: string }) =>
    sponsor.addedAt ? `Added ${new Date(sponsor.addedAt).toLocaleDateString(locale, { dateStyle: "medium", timeZone: "UTC" })}` : "";
  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:py-14">
      <h1 className="text-3xl font-bold">Recently Added Sponsors</h1>
      <p className="mt-2 text-muted">
        The newest companies in the directory. <Link to={SPONSORS_PATH}>Search all sponsors</Link>
      </p>
      <div className="mt-8">
        {items.length === 0 ? (
          <p className="rounded-2xl bg-primary/5 p-6 text-lg">No sponsors have been added yet.</p>
        ) : (
          <div className="grid gap-6">
            <SampleNoticeFor companies={items} />
            <SponsorBlurbCards sponsors={items} note={added} />
          </div>
        )}
        <Pager page={page} hasPrevious={hasPrevious} hasNext={hasNext} href={(n) => directoryHref({ tags: [], name: "" }, n, RECENT_PATH)} />
      </div>
    </div>
  );
}
