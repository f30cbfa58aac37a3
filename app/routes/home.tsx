import { Link } from "react-router";
import { listShowcasePages } from "#server/domains/bio/showcase";
import { homeCopy } from "#server/domains/content/home";
import { listBlogPosts } from "#server/domains/content/library";
import { BioPagePhone } from "#app/components/home-page/BioPagePhone";
import { SAMPLE_PAGE } from "#app/components/home-page/sample-page";
import { SponsorView } from "#app/components/home-page/SponsorView";
import { GuideLinks } from "#app/components/GuideLinks";
import { pageMeta } from "#page-kit/meta";
import { placeholdersFrom } from "#app/lib/placeholders.server";
import type { Route } from "./+types/home";

export const handle = { hydrate: false };

/** The doors: sign-up with the side chosen (the form shows it and offers the other). */
export const CREATOR_DOOR = "/signup?type=creator";
export const SPONSOR_DOOR = "/signup?type=sponsor";

// Guest-cached: bio page writes (featuring included) move the guest page generation (a database trigger), so the phones stay current.
export async function loader({ context }: Route.LoaderArgs) {
  const posts = listBlogPosts()
    .slice(0, 3)
    .map(({ slug, title, description, date }) => ({ slug, title, description, date }));
  const pages = await listShowcasePages(context.db, 3);
  return { copy: homeCopy(placeholdersFrom(context.config)), posts, pages, bioOrigin: context.config.BIO_ORIGIN };
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

const primaryDoor = "rounded-full bg-primary px-7 py-3.5 text-center text-lg font-semibold text-white no-underline hover:bg-primary-dark";
const secondaryDoor = "rounded-full border-2 border-primary bg-white px-7 py-3.5 text-center text-lg font-semibold text-primary no-underline";

/** A phone with its caption: a real page links to itself on the bio host; the sample says it is one. */
function PhoneWithCaption({ page, bioOrigin, sample }: { page: (typeof SAMPLE_PAGE); bioOrigin: string; sample: boolean }) {
  return (
    <figure>
      <BioPagePhone page={page} />
      <figcaption className="mt-3 text-center text-sm">
        {sample ? (
          <span className="text-muted">A sample page. Yours takes a few minutes.</span>
        ) : (
          <a href={`${bioOrigin}/${page.customEnding}`} className="font-semibold">
            Open {page.name}
          </a>
        )}
      </figcaption>
    </figure>
  );
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { copy, posts, pages, bioOrigin } = loaderData;
  const [first, ...more] = pages;
  return (
    <>
      <section className="bg-gradient-to-b from-secondary/50 to-white">
        <div className="mx-auto grid max-w-6xl items-center gap-10 px-4 py-12 sm:py-20 lg:grid-cols-[3fr_2fr]">
          <div>
            <h1 className="text-4xl font-extrabold leading-tight tracking-tight sm:text-5xl">{copy.headline}</h1>
            <p className="mt-5 max-w-2xl text-lg text-muted sm:text-xl">{copy.subheading}</p>
            <div className="mt-8 flex flex-col gap-3 sm:flex-row">
              <Link to={CREATOR_DOOR} className={primaryDoor}>
                I'm a creator
              </Link>
              <Link to={SPONSOR_DOOR} className={secondaryDoor}>
                I'm a sponsor
              </Link>
            </div>
            <p className="mt-4 text-sm text-muted">
              Free to join. Already have an account? <Link to="/signin">Sign in</Link>
            </p>
          </div>
          <div data-home-hero-phone>
            <PhoneWithCaption page={first ?? SAMPLE_PAGE} bioOrigin={bioOrigin} sample={!first} />
          </div>
        </div>
      </section>

      <section className="mx-auto max-w-6xl px-4 py-16" aria-labelledby="fans-see">
        <div className="grid items-start gap-10 lg:grid-cols-[2fr_3fr]">
          <div>
            <h2 id="fans-see" className="text-3xl font-bold">
              What a fan sees
            </h2>
            <p className="mt-3 text-lg text-muted">
              Your page, in your colours: your photo and story, your links, and tip amounts fans pay by card without making an account.
            </p>
            <Checklist items={copy.creators} />
            <Link to={CREATOR_DOOR} className={`${primaryDoor} mt-8 inline-block`}>
              Make your page
            </Link>
          </div>
          {more.length > 0 ? (
            <ul className="grid gap-10 sm:grid-cols-2" aria-label="More featured pages">
              {more.map((page) => (
                <li key={page.customEnding}>
                  <PhoneWithCaption page={page} bioOrigin={bioOrigin} sample={false} />
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      </section>

      <section className="bg-secondary/30" aria-labelledby="sponsors-get">
        <div className="mx-auto grid max-w-6xl items-center gap-10 px-4 py-16 lg:grid-cols-2">
          <div>
            <h2 id="sponsors-get" className="text-3xl font-bold">
              What a sponsor gets
            </h2>
            <p className="mt-3 text-lg text-muted">Post a brief, pick from the creators who apply, and pay only for work you approve.</p>
            <Checklist items={copy.sponsors} />
            <Link to={SPONSOR_DOOR} className={`${secondaryDoor} mt-8 inline-block`}>
              Post a brief
            </Link>
          </div>
          <SponsorView />
        </div>
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
        <p className="md:col-span-2">
          <Link to="/featured" className="font-semibold">
            See every featured page and opportunity
          </Link>
        </p>
      </section>
    </>
  );
}
