import { Link } from "react-router";
import { findContent, renderContent } from "#server/domains/content/library";
import { Prose } from "#app/components/Prose";
import { GuideLinks } from "#app/components/GuideLinks";
import { contentPageFor } from "#isomorphic/content-pages";
import { pageMeta } from "#page-kit/meta";
import { placeholdersFrom } from "#app/lib/placeholders.server";
import { refuse } from "#page-kit/respond.server";
import type { Route } from "./+types/content-page";

export const handle = { hydrate: false };

export function loader({ request, context }: Route.LoaderArgs) {
  const route = contentPageFor(new URL(request.url).pathname);
  const entry = route && findContent(route.collection, route.slug);
  if (!route || !entry) refuse("not-found");
  const page = renderContent(entry, placeholdersFrom(context.config));
  return { page, section: route.section, path: route.path };
}

export const meta: Route.MetaFunction = (args) =>
  args.data
    ? pageMeta(args, {
        title: args.data.page.title,
        description: args.data.page.description,
        type: args.data.section === "Guide" ? "article" : "website",
      })
    : [];

export default function ContentPage({ loaderData }: Route.ComponentProps) {
  const { page, section, path } = loaderData;
  const isGuide = section === "Guide";
  return (
    <article className="mx-auto max-w-3xl px-4 py-12 sm:py-16">
      <p className="text-sm font-semibold uppercase tracking-widest text-primary">{section}</p>
      <h1 className="mt-2 text-3xl font-bold leading-tight sm:text-4xl">{page.title}</h1>
      <p className="mt-4 text-lg text-muted">{page.description}</p>
      <div className="mt-10">
        <Prose html={page.html} />
      </div>
      {isGuide ? <GuideFooter currentPath={path} /> : null}
    </article>
  );
}

function GuideFooter({ currentPath }: { currentPath: string }) {
  return (
    <aside className="mt-14 rounded-2xl bg-secondary/40 p-6 sm:p-8" aria-labelledby="next-steps">
      <h2 id="next-steps" className="text-xl font-bold">
        Put this guide to work
      </h2>
      <p className="mt-2">Browse live sponsorship opportunities, or set up a bio page so fans and brands can support you directly.</p>
      <div className="mt-5 flex flex-wrap gap-3">
        <Link to="/app/opportunities" className="rounded-full bg-primary px-5 py-2.5 font-semibold text-white no-underline">
          Browse opportunities
        </Link>
        <Link to="/signup?type=creator" className="rounded-full border border-primary bg-white px-5 py-2.5 font-semibold text-primary no-underline">
          Join as a creator
        </Link>
      </div>
      <h3 className="mt-8 font-semibold">More guides</h3>
      <GuideLinks exceptPath={currentPath} className="mt-2 list-disc space-y-1 pl-5" />
    </aside>
  );
}
