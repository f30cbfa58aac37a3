import { getSessionUser } from "#server/auth/session";
import { listFeatured } from "#server/featured/featured";
import { OpportunityCardList } from "#app/components/opportunities/OpportunityCard";
import { localeFrom } from "#app/lib/format";
import { pageMeta } from "#app/lib/meta";
import type { Route } from "./+types/featured";

export const handle = { hydrate: false };

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await getSessionUser(request, context);
  const featured = await listFeatured(context.db, viewer?.id ?? null);
  return {
    ...featured,
    locale: localeFrom(request.headers.get("Accept-Language")),
    bioHost: new URL(context.config.BIO_ORIGIN).host,
    appName: context.config.APP_NAME,
  };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Featured",
    description: "Hand-picked sponsorship opportunities and creator bio pages, chosen by the team for their clear offers and great work.",
  });

export default function Featured({ loaderData }: Route.ComponentProps) {
  const { opportunities, pages, locale, bioHost, appName } = loaderData;
  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:py-16">
      <h1 className="text-3xl font-bold sm:text-4xl">Featured</h1>
      <p className="mt-3 max-w-2xl text-lg text-muted">
        Opportunities and bio pages the team picked for clear offers, fair budgets and great work.
      </p>

      <section aria-labelledby="featured-opportunities" className="mt-12">
        <h2 id="featured-opportunities" className="text-2xl font-bold">
          Featured opportunities
        </h2>
        {opportunities.length === 0 ? (
          <p className="mt-4 text-muted">No opportunities are featured right now. Check back soon.</p>
        ) : (
          <OpportunityCardList
            posts={opportunities}
            appName={appName}
            locale={locale}
            className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-3"
          />
        )}
      </section>

      <section aria-labelledby="featured-pages" className="mt-16">
        <h2 id="featured-pages" className="text-2xl font-bold">
          Featured bio pages
        </h2>
        {pages.length === 0 ? (
          <p className="mt-4 text-muted">No bio pages are featured right now. Check back soon.</p>
        ) : (
          <ul className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {pages.map((page) => (
              <li key={page.customEnding} className="rounded-2xl bg-secondary/30 p-6">
                <h3 className="text-lg font-bold">{page.name}</h3>
                <p className="text-sm text-muted">
                  {bioHost}/{page.customEnding}
                </p>
                <p className="mt-3">{page.blurb}</p>
                {page.linkTypes.length > 0 ? (
                  <p className="mt-3 text-sm text-muted">Links: {page.linkTypes.join(", ")}</p>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
