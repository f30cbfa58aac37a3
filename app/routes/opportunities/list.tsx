import { data, Link } from "react-router";
import { getSessionUser } from "#server/domains/auth/session";
import { listOpportunities } from "#server/domains/opportunities/list";
import { listHref, MAX_TAG_FILTERS } from "#isomorphic/opportunity-links";
import { parseListQuery } from "#server/domains/opportunities/list-query";
import { logTagSearch } from "#server/domains/opportunities/read";
import { DEFAULT_TAG_GROUP, TAG_GROUPS, type TagGroupKind } from "#isomorphic/tag-groups";
import { allTags } from "#server/domains/opportunities/tags";
import { FormNotice, primaryButton } from "#page-kit/forms";
import { OpportunityCardList } from "#app/components/opportunities/OpportunityCard";
import { TagFilter } from "#app/components/opportunities/TagFilter";
import { localeFrom } from "#isomorphic/format";
import { pageMeta } from "#page-kit/meta";
import { answerRefusal } from "#page-kit/respond.server";
import type { Route } from "./+types/list";

export const EMPTY_TEXT = "Sorry, we couldn't find any opportunities matching your search criteria.";

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const [catalogue, viewer] = await Promise.all([context.tagCatalogue(), getSessionUser(request, context)]);
  const known = allTags(catalogue);
  const groupParam = url.searchParams.get("group");
  const group = (TAG_GROUPS.some((g) => g.kind === groupParam) ? groupParam : DEFAULT_TAG_GROUP) as TagGroupKind;

  const parsed = parseListQuery(url.searchParams, known);
  // A forged or impossible address changes nothing: the known tags (at most 6) from page 0, with a message.
  const query =
    parsed.kind === "SUCCESS"
      ? parsed.query
      : {
          tags: url.searchParams.getAll("tags[]").map((t) => t.trim().toLowerCase()).filter((t) => known.has(t)).slice(0, MAX_TAG_FILTERS),
          after: null,
          before: null,
          page: 0,
        };
  const result = await listOpportunities(context.db, query, viewer?.id ?? null);
  if (parsed.kind === "SUCCESS" && query.page === 0 && !query.after && !query.before) {
    logTagSearch(context.searchLog, viewer?.id ?? null, query.tags);
  }
  const page = {
    ...result,
    query,
    catalogue,
    group,
    error: parsed.kind === "ERROR" ? parsed.message : null,
    locale: localeFrom(request.headers.get("Accept-Language")),
    appName: context.config.APP_NAME,
  };
  return parsed.kind === "ERROR" ? answerRefusal(parsed, page) : data(page);
}

// Rendered from its loader data alone: the same data is sent as the document rendered before (server/platform/http/rendered-documents.ts).
export const handle = { rendersFromDataOnly: true };

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Opportunities",
    description: "Paid sponsorship opportunities for YouTubers, streamers, podcasters and influencers. Filter by tag and save the ones you like.",
  });

export default function Opportunities({ loaderData }: Route.ComponentProps) {
  const { items, total, query, catalogue, group, error, locale, appName, hasNext, hasPrevious } = loaderData;
  const first = items[0];
  const last = items[items.length - 1];
  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:py-14">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold">Opportunities</h1>
          <p className="mt-1 text-muted">
            {total.toLocaleString("en-US")} {total === 1 ? "opportunity" : "opportunities"} posted
          </p>
        </div>
        <Link to="/app/opportunities/new" className={`${primaryButton} no-underline`}>
          New
        </Link>
      </div>

      {error ? (
        <div className="mt-6">
          <FormNotice>{error}</FormNotice>
        </div>
      ) : null}

      <div className="mt-8 grid gap-8 lg:grid-cols-[20rem_1fr]">
        <TagFilter catalogue={catalogue} selected={query.tags} group={group} />
        <section aria-labelledby="results-heading">
          <h2 id="results-heading" className="sr-only">
            Results
          </h2>
          {items.length === 0 ? (
            <p className="rounded-2xl bg-primary/5 p-6 text-lg">{EMPTY_TEXT}</p>
          ) : (
            <OpportunityCardList posts={items} appName={appName} locale={locale} className="grid gap-5 sm:grid-cols-2" />
          )}
          {hasPrevious || hasNext ? (
            <nav aria-label="Pages" className="mt-8 flex items-center justify-between gap-4">
              {hasPrevious && first ? (
                <Link to={listHref(query.tags, { before: first.id, page: Math.max(0, query.page - 1) })} rel="prev">
                  ← Previous
                </Link>
              ) : (
                <span />
              )}
              <span className="text-sm text-muted">Page {query.page + 1}</span>
              {hasNext && last ? (
                <Link to={listHref(query.tags, { after: last.id, page: query.page + 1 })} rel="next">
                  Next →
                </Link>
              ) : (
                <span />
              )}
            </nav>
          ) : null}
        </section>
      </div>
    </div>
  );
}
