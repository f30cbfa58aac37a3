import { Link } from "react-router";
import { listFeaturedPages } from "#server/domains/bio/public-page";
import { homeCopy } from "#server/domains/content/home";
import { listBlogPosts } from "#server/domains/content/library";
import { BioPageCards } from "#app/components/bio/BioPageCards";
import { LogoMark } from "#app/components/Logo";
import { GuideLinks } from "#app/components/GuideLinks";
import { pageMeta } from "#page-kit/meta";
import { placeholdersFrom } from "#app/lib/placeholders.server";
import type { Route } from "./+types/home";

export const handle = { hydrate: false };

// Guest-cached: bio page writes (featuring included) move the guest page generation (a database trigger), so the cards stay current.
export async function loader({ context }: Route.LoaderArgs) {
  const posts = listBlogPosts()
    .slice(0, 3)
    .map(({ slug, title, description, date }) => ({ slug, title, description, date }));
  const bioPages = await listFeaturedPages(context.db, 3);
  return { copy: homeCopy(placeholdersFrom(context.config)), posts, bioPages, bioOrigin: context.config.BIO_ORIGIN };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "Sponsorships for creators", description: args.data?.copy.subheading });

function Checklist({ items }: { items: string[] }) {
  return (
    <ul className="mt-5 space-y-3">
      {items.map((item) => (
        <li key={item} className="flex gap-3">
          <span aria-hidden="true" className="mt-1 inline-block h-4 w-4 flex-none rounded-full bg-accent" />
          <span>{item}</span>
        </li>
      ))}
    </ul>
  );
}

function AudienceCard({ audience, items }: { audience: "creator" | "sponsor"; items: string[] }) {
  return (
    <div className="rounded-2xl border border-primary/15 p-8 shadow-sm">
      <h2 className="text-2xl font-bold">For {audience}s</h2>
      <Checklist items={items} />
      <Link to={`/signin?type=${audience}`} className="mt-6 inline-block font-semibold">
        Create your {audience} account
      </Link>
    </div>
  );
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { copy, posts, bioPages, bioOrigin } = loaderData;
  return (
    <>
      <section className="bg-gradient-to-b from-secondary/50 to-white">
        <div className="mx-auto grid max-w-6xl items-center gap-10 px-4 py-16 sm:py-24 lg:grid-cols-[3fr_2fr]">
          <div>
            <h1 className="text-4xl font-extrabold leading-tight tracking-tight sm:text-5xl">{copy.headline}</h1>
            <p className="mt-5 max-w-2xl text-lg text-muted sm:text-xl">{copy.subheading}</p>
            <div className="mt-8 flex flex-col gap-3 sm:flex-row">
              <Link
                to="/signin?type=creator"
                className="rounded-full bg-primary px-7 py-3.5 text-center text-lg font-semibold text-white no-underline hover:bg-primary-dark"
              >
                I'm a creator
              </Link>
              <Link
                to="/signin?type=sponsor"
                className="rounded-full border-2 border-primary bg-white px-7 py-3.5 text-center text-lg font-semibold text-primary no-underline"
              >
                I'm a sponsor
              </Link>
            </div>
          </div>
          <div className="hidden justify-center lg:flex">
            <LogoMark className="h-56 w-56 drop-shadow-xl" />
          </div>
        </div>
      </section>

      <section className="mx-auto grid max-w-6xl gap-8 px-4 py-16 md:grid-cols-2" aria-label="Who it's for">
        <AudienceCard audience="creator" items={copy.creators} />
        <AudienceCard audience="sponsor" items={copy.sponsors} />
      </section>

      <section className="bg-primary text-white">
        <div className="mx-auto max-w-6xl px-4 py-16">
          <h2 className="text-3xl font-bold">How it works</h2>
          <ol className="mt-8 grid gap-6 md:grid-cols-3">
            {copy.steps.map((step, index) => (
              <li key={step} className="rounded-2xl bg-white/10 p-6">
                <span className="block text-4xl font-extrabold text-secondary">{index + 1}</span>
                <span className="mt-2 block text-lg">{step}</span>
              </li>
            ))}
          </ol>
        </div>
      </section>

      {bioPages.length > 0 ? (
        <section className="mx-auto max-w-6xl px-4 pt-16" aria-labelledby="featured-bio-pages">
          <div className="flex flex-wrap items-end justify-between gap-4">
            <h2 id="featured-bio-pages" className="text-2xl font-bold">
              Featured bio pages
            </h2>
            <Link to="/featured" className="font-semibold">
              See everything featured
            </Link>
          </div>
          <BioPageCards pages={bioPages} bioOrigin={bioOrigin} className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-3" />
        </section>
      ) : null}

      <section className="mx-auto grid max-w-6xl gap-10 px-4 py-16 md:grid-cols-2">
        <div>
          <h2 className="text-2xl font-bold">Sponsorship guides</h2>
          <GuideLinks className="mt-4 space-y-2" />
        </div>
        <div>
          <h2 className="text-2xl font-bold">From the blog</h2>
          <ul className="mt-4 space-y-4">
            {posts.map((post) => (
              <li key={post.slug}>
                <Link to={`/blog/${post.slug}`} className="font-semibold">
                  {post.title}
                </Link>
                <p className="text-muted">{post.description}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>
    </>
  );
}
