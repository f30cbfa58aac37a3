import type { BioPageCard } from "#server/domains/bio/public-page";

/**
 * Featured bio pages as cards (home page and /featured). Each card opens the
 * page itself on the bio host; the whole card is the link's target area.
 */
export function BioPageCards({ pages, bioOrigin, className, headingLevel = 3 }: { pages: BioPageCard[]; bioOrigin: string; className?: string; headingLevel?: 2 | 3 }) {
  const host = new URL(bioOrigin).host;
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <ul className={className}>
      {pages.map((page) => {
        const labels = page.linkLabels;
        return (
          <li key={page.customEnding} className="relative flex flex-col rounded-2xl bg-secondary/30 p-6 focus-within:ring-2 focus-within:ring-primary">
            <Heading className="break-words text-lg font-bold">
              <a href={`${bioOrigin}/${page.customEnding}`} className="no-underline after:absolute after:inset-0 after:content-['']">
                {page.name}
              </a>
            </Heading>
            <p className="break-all text-sm text-muted">
              {host}/{page.customEnding}
            </p>
            {page.blurb ? <p className="mt-3 line-clamp-4 break-words">{page.blurb}</p> : null}
            {labels.length > 0 ? <p className="mt-3 text-sm text-muted">Links: {labels.join(", ")}</p> : null}
          </li>
        );
      })}
    </ul>
  );
}
