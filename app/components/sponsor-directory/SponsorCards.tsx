import { Link } from "react-router";
import type { SponsorBlurb } from "#server/domains/sponsor-directory/list";
import { sponsorHref } from "#isomorphic/sponsor-directory-links";
import type { SponsorPreview } from "#server/domains/sponsor-directory/previews";
import { SampleNotice } from "./SampleNotice";

/** The sample notice, once above a list, when the list holds invented companies. */
export function SampleNoticeFor({ companies }: { companies: { sample: boolean }[] }) {
  return companies.some((company) => company.sample) ? <SampleNotice /> : null;
}

function TagList({ tags }: { tags: string[] }) {
  if (tags.length === 0) return null;
  return (
    <ul className="mt-3 flex flex-wrap gap-2" aria-label="Tags">
      {tags.map((tag) => (
        <li key={tag} className="rounded-full bg-primary/5 px-3 py-1 text-sm">
          {tag}
        </li>
      ))}
    </ul>
  );
}

/** Pro list cards: name, tags, blurb, the company's website and its page here. */
export function SponsorBlurbCards({ sponsors, note }: { sponsors: (SponsorBlurb & { addedAt?: string })[]; note?: (s: SponsorBlurb & { addedAt?: string }) => string }) {
  return (
    <ul className="grid gap-5 sm:grid-cols-2" aria-label="Sponsors">
      {sponsors.map((sponsor) => (
        <li key={sponsor.id} className="flex flex-col rounded-2xl border border-ink/10 p-5">
          <h3 className="break-words text-lg font-bold">
            <Link to={sponsorHref(sponsor.id)}>{sponsor.name}</Link>
          </h3>
          {note ? <p className="text-sm text-muted">{note(sponsor)}</p> : null}
          <TagList tags={sponsor.tags} />
          <p className="mt-3 break-words">{sponsor.blurb}</p>
          <p className="mt-auto flex flex-wrap gap-x-5 gap-y-2 pt-4 text-sm">
            <a href={sponsor.website} target="_blank" rel="noopener noreferrer external">
              Website<span className="sr-only"> of {sponsor.name} (opens in a new tab)</span>
            </a>
            <Link to={sponsorHref(sponsor.id)}>
              Details<span className="sr-only"> of {sponsor.name}</span>
            </Link>
          </p>
        </li>
      ))}
    </ul>
  );
}

/** Preview cards for people without Pro: name, tags and the teaser, nothing else. */
export function SponsorPreviewCards({ previews }: { previews: SponsorPreview[] }) {
  return (
    <ul className="grid gap-5 sm:grid-cols-2" aria-label="Sponsor previews">
      {previews.map((preview) => (
        <li key={preview.id} className="rounded-2xl border border-ink/10 p-5">
          <h3 className="break-words text-lg font-bold">{preview.name}</h3>
          <TagList tags={preview.tags} />
          <p className="mt-3 break-words">{preview.preview}</p>
        </li>
      ))}
    </ul>
  );
}
