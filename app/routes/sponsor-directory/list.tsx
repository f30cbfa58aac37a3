import { data, Link, useLocation } from "react-router";
import { getSessionUser } from "#server/domains/auth/session";
import { directoryAccess } from "#server/domains/sponsor-directory/access";
import { directoryHref, PREVIEWS_PATH, RECENT_PATH, type DirectorySearch } from "#isomorphic/sponsor-directory-links";
import { listSponsorBlurbs, type SponsorBlurb, type SponsorPage } from "#server/domains/sponsor-directory/list";
import { listSponsorPreviews, type SponsorPreview } from "#server/domains/sponsor-directory/previews";
import { parseDirectoryQuery } from "#server/domains/sponsor-directory/query";
import { logSponsorSearch } from "#server/domains/sponsor-directory/search-log";
import { listSponsorTags } from "#server/domains/sponsor-directory/tags";
import { pitchesProTo } from "#server/domains/pro/audience";
import { FormNotice, primaryButton, secondaryButton } from "#page-kit/forms";
import { Pager } from "#app/components/sponsor-directory/Pager";
import { ProNotice } from "#app/components/sponsor-directory/ProNotice";
import { ProUpsell } from "#app/components/sponsor-directory/ProUpsell";
import { SearchControls } from "#app/components/sponsor-directory/SearchControls";
import { SampleNoticeFor, SponsorBlurbCards, SponsorPreviewCards } from "#app/components/sponsor-directory/SponsorCards";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/list";

type Loaded =
  | { access: "guest" }
  | { access: "unverified" }
  | { access: "preview"; allTags: string[]; search: DirectorySearch; searched: boolean; previews: SponsorPreview[]; upsell: boolean }
  | ({ access: "pro"; allTags: string[]; search: DirectorySearch; error: string | null } & SponsorPage<SponsorBlurb>);

export const EMPTY_TEXT = "Sorry, we couldn't find any sponsors matching your search criteria.";

/**
 * /app/sponsors (SPEC §2.5 Sponsor list; ADR 0022). Every read is decided here,
 * on the server, from who asks: a guest or an unverified person gets no
 * company at all; a verified person without Pro gets the preview sample
 * (SPEC §8: "permission denied on sponsor blurbs falls back to previews"),
 * whatever `tags[]`/`name`/`page` say; only Pro reads blurbs and searches.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await getSessionUser(request, context);
  const access = await directoryAccess(context.db, user);
  if (access === "guest" || access === "unverified") return data({ access } satisfies Loaded as Loaded);

  const url = new URL(request.url);
  const allTags = await listSponsorTags(context.db);
  const { query, error } = parseDirectoryQuery(url.searchParams, new Set(allTags));
  const search = { tags: query.tags, name: query.name };
  if (access === "preview") {
    const searched = query.tags.length > 0 || query.name !== "";
    const [previews, upsell] = await Promise.all([listSponsorPreviews(context.db), pitchesProTo(context.db, user!.id)]);
    return data({ access, allTags, search, searched, previews, upsell } as Loaded);
  }
  const page = await listSponsorBlurbs(context.db, query);
  if (query.page === 1) logSponsorSearch(context.searchLog, user!.id, query, page.items.length);
  return data({ access, allTags, search, error, ...page } as Loaded, { status: error ? 400 : 200 });
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Sponsors",
    description: "A curated directory of companies that sponsor YouTubers, streamers, podcasters and influencers, with how to apply to each.",
    noindex: args.data?.access !== "guest",
  });

export default function Sponsors({ loaderData }: Route.ComponentProps) {
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:py-14">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <h1 className="text-3xl font-bold">Sponsors</h1>
        {loaderData.access === "pro" || loaderData.access === "preview" ? (
          <Link to={RECENT_PATH}>Recently Added</Link>
        ) : null}
      </div>
      <Body data={loaderData} here={here} />
    </div>
  );
}

function Body({ data: loaded, here }: { data: Loaded; here: string }) {
  if (loaded.access === "guest") {
    return (
      <section className="mt-6 max-w-2xl">
        <p className="text-lg">
          A curated directory of companies that sponsor creators: what each one sponsors, the deal formats it uses and how to apply.
          Search it by tag or by name with Pro.
        </p>
        <p className="mt-3">
          <Link to={PREVIEWS_PATH}>Browse a sample of the directory</Link> for free, no account needed.
        </p>
        <p className="mt-6 flex flex-wrap gap-3">
          <Link to="/signup?redirectTo=%2Fapp%2Fsponsors" className={`${primaryButton} no-underline`}>
            Sign Up
          </Link>
          <Link to="/signin?redirectTo=%2Fapp%2Fsponsors" className={`${secondaryButton} no-underline`}>
            Sign In
          </Link>
        </p>
      </section>
    );
  }
  if (loaded.access === "unverified") {
    return (
      <section className="mt-6 max-w-2xl">
        <p className="text-lg">The sponsor directory needs a verified email address.</p>
        <p className="mt-3">
          <Link to="/app/verify">Verify your email address</Link> to browse it. Meanwhile, <Link to={PREVIEWS_PATH}>see a sample of the directory</Link>.
        </p>
      </section>
    );
  }
  const pro = loaded.access === "pro";
  return (
    <div className="mt-8 grid gap-8 lg:grid-cols-[20rem_1fr]">
      <SearchControls allTags={loaded.allTags} search={loaded.search} pro={pro} returnTo={here} upsell={loaded.access === "preview" ? loaded.upsell : true} />
      <section aria-labelledby="results-heading" className="min-w-0">
        <h2 id="results-heading" className="sr-only">
          {pro ? "Results" : "Sponsor previews"}
        </h2>
        {loaded.access === "pro" ? (
          <>
            {loaded.error ? (
              <div className="mb-6">
                <FormNotice>{loaded.error}</FormNotice>
              </div>
            ) : null}
            {loaded.items.length === 0 ? (
              <p className="rounded-2xl bg-primary/5 p-6 text-lg">{EMPTY_TEXT}</p>
            ) : (
              <div className="grid gap-6">
                <SampleNoticeFor companies={loaded.items} />
                <SponsorBlurbCards sponsors={loaded.items} />
              </div>
            )}
            <Pager page={loaded.page} hasPrevious={loaded.hasPrevious} hasNext={loaded.hasNext} href={(page) => directoryHref(loaded.search, page)} />
          </>
        ) : (
          <div className="grid gap-6">
            {loaded.searched ? <ProNotice what={loaded.search.name ? "Search by name" : "Search by tag"} returnTo={here} upsell={loaded.upsell} /> : null}
            <p>
              A sample of the directory. <Link to={PREVIEWS_PATH}>All previews</Link>
            </p>
            <SampleNoticeFor companies={loaded.previews} />
            <SponsorPreviewCards previews={loaded.previews} />
            <ProUpsell returnTo={here} upsell={loaded.upsell} />
          </div>
        )}
      </section>
    </div>
  );
}
