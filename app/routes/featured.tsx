import { getSessionUser } from "#server/domains/auth/session";
import { listFeatured } from "#server/features/featured/featured";
import { BioPageCards } from "#app/components/bio/BioPageCards";
import { OpportunityCardList } from "#app/components/opportunities/OpportunityCard";
import { localeFrom } from "#isomorphic/format";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/featured";

export const handle = { hydrate: false };

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await getSessionUser(request, context);
  const featured = await listFeatured(context.db, viewer?.id ?? null);
  return {
    ...featured,
    locale: localeFrom(request.headers.get("Accept-Language")),
    bioOrigin: context.config.BIO_ORIGIN,
    appName: context.config.APP_NAME,
  };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Featured",
    description: "Hand-picked sponsorship opportunities and creator bio pages, chosen by the team for their clear offers and great work.",
  });

export default function Featured({ loaderData }: Route.ComponentProps) {
  const { opportunities, pages, locale, bioOrigin, appName } = loaderData;
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
          <BioPageCards pages={pages} bioOrigin={bioOrigin} className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-3" />
        )}
      </section>
    </div>
  );
}
