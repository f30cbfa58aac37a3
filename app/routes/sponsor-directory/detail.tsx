import { Link } from "react-router";
import { SPONSORS_PATH } from "#isomorphic/sponsor-directory-links";
import { getSponsorDetail } from "#server/domains/sponsor-directory/detail";
import { requirePro } from "#server/domains/pro/guards";
import { SampleNotice } from "#app/components/sponsor-directory/SampleNotice";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/detail";
import { refuse } from "#page-kit/respond.server";

/** A company's page (SPEC detail + page): Pro only, checked before the id is even looked at. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requirePro(request, context);
  const sponsor = await getSponsorDetail(context.db, params.sponsorId);
  if (!sponsor) refuse("not-found");
  return { sponsor };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: args.data?.sponsor.name ?? "Sponsor", noindex: true });

/** A fact's own public source, when staff cited one (the page's Source line covers the rest). */
function Cite({ url, fact, block = false }: { url: string | undefined; fact: string; block?: boolean }) {
  if (!url) return null;
  const link = (
    <a href={url} target="_blank" rel="noopener noreferrer external" className="text-sm">
      Source<span className="sr-only"> of the {fact} (opens in a new tab)</span>
    </a>
  );
  return block ? <p className="mt-1 text-muted">{link}</p> : <span className="ml-2 text-muted">{link}</span>;
}

export default function SponsorDetailPage({ loaderData }: Route.ComponentProps) {
  const { sponsor } = loaderData;
  const { details } = sponsor;
  const sources = details.sources ?? {};
  return (
    <article className="mx-auto max-w-3xl px-4 py-10 sm:py-14">
      <p className="text-sm">
        <Link to={SPONSORS_PATH}>← All sponsors</Link>
      </p>
      <h1 className="mt-3 break-words text-3xl font-bold">{sponsor.name}</h1>
      {sponsor.sample ? (
        <div className="mt-3">
          <SampleNotice />
        </div>
      ) : null}
      <p className="mt-2 break-all">
        <a href={sponsor.website} target="_blank" rel="noopener noreferrer external">
          {sponsor.website}
          <span className="sr-only"> (opens in a new tab)</span>
        </a>
        <Cite url={sources.website} fact="website" />
      </p>
      {sponsor.tags.length ? (
        <ul className="mt-4 flex flex-wrap gap-2" aria-label="Tags">
          {sponsor.tags.map((tag) => (
            <li key={tag} className="rounded-full bg-primary/5 px-3 py-1 text-sm">
              {tag}
            </li>
          ))}
        </ul>
      ) : null}
      <Cite url={sources.tags} fact="tags" block />
      <p className="mt-6 text-lg">{sponsor.blurb}</p>
      <Cite url={sources.blurb} fact="description" block />
      {details.sponsors ? (
        <>
          <h2 className="mt-8 text-xl font-bold">What they sponsor</h2>
          <p className="mt-2">{details.sponsors}</p>
          <Cite url={sources.sponsors} fact="what they sponsor" block />
        </>
      ) : null}
      {details.formats.length ? (
        <>
          <h2 className="mt-8 text-xl font-bold">Formats</h2>
          <ul className="mt-2 list-disc pl-6">
            {details.formats.map((format) => (
              <li key={format}>{format}</li>
            ))}
          </ul>
        </>
      ) : null}
      <h2 className="mt-8 text-xl font-bold">How to apply</h2>
      <p className="mt-2">{details.apply}</p>
      <Cite url={sources.apply} fact="how to apply" block />
      {details.applyUrl ? (
        <p className="mt-2 break-all">
          <a href={details.applyUrl} target="_blank" rel="noopener noreferrer external">
            Apply on {sponsor.name}'s site<span className="sr-only"> (opens in a new tab)</span>
          </a>
        </p>
      ) : null}
      {details.source ? (
        <p className="mt-8 break-all text-sm text-muted">
          Source:{" "}
          <a href={details.source} target="_blank" rel="noopener noreferrer external">
            {details.source}
            <span className="sr-only"> (opens in a new tab)</span>
          </a>
        </p>
      ) : null}
    </article>
  );
}
