import { Form } from "react-router";
import { listProfiles, parseProfilesQuery } from "#server/features/profiles/directory";
import { Pager } from "#app/components/sponsor-directory/Pager";
import { ProfileCards } from "#app/components/profiles/ProfileCards";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/profiles";

/** /app/profiles (SPEC §2.1): creators' public bio pages, open to guests; sponsors browse it. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { query, page } = parseProfilesQuery(new URL(request.url).searchParams);
  return { ...(await listProfiles(context.db, query, page)), query, bioOrigin: context.config.BIO_ORIGIN };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Profiles",
    description: "Browse creators' bio pages: YouTubers, streamers, podcasters and influencers open to sponsorships.",
  });

function href(query: string, page: number): string {
  const params = new URLSearchParams();
  if (query) params.set("name", query);
  if (page > 1) params.set("page", String(page));
  const search = params.toString();
  return search ? `/app/profiles?${search}` : "/app/profiles";
}

export default function Profiles({ loaderData }: Route.ComponentProps) {
  const { items, query, page, hasPrevious, hasNext, bioOrigin } = loaderData;
  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:py-14">
      <h1 className="text-3xl font-bold">Profiles</h1>
      <p className="mt-2 max-w-2xl text-muted">Creators' bio pages. Open one to see their channels, and sponsor them when they accept sponsorships.</p>
      <Form method="get" role="search" className="mt-6 flex max-w-xl flex-wrap items-end gap-3">
        <label className="grid min-w-0 flex-1 gap-1">
          <span className="text-sm font-medium">Search by name</span>
          <input type="search" name="name" defaultValue={query} key={query} maxLength={100} className="w-full rounded-lg border border-ink/20 px-3 py-2" />
        </label>
        <button type="submit" className="rounded-full bg-primary px-5 py-2 font-semibold text-white hover:bg-primary-dark">
          Search
        </button>
      </Form>
      <section aria-label="Profiles found" className="mt-8">
        {items.length === 0 ? (
          <p className="rounded-2xl bg-primary/5 p-6 text-lg">{query ? `No profiles match “${query}”.` : "No profiles yet."}</p>
        ) : (
          <ProfileCards profiles={items} bioOrigin={bioOrigin} />
        )}
        <Pager page={page} hasPrevious={hasPrevious} hasNext={hasNext} href={(n) => href(query, n)} />
      </section>
    </div>
  );
}
