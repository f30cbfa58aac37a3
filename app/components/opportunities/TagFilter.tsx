import { Link } from "react-router";
import { MAX_TAG_FILTERS, listHref } from "#isomorphic/opportunity-links";
import { TAG_GROUPS, type TagCatalogue, type TagGroupKind } from "#isomorphic/tag-groups";
import { TagChip } from "#app/components/TagChip";

/**
 * 'Search By Tag': pick a group, then tags. Every choice is a link to the
 * filtered first page, so filters live in the address and work without
 * JavaScript. A 7th tag is not offered; the page says why.
 */
export function TagFilter({ catalogue, selected, group }: { catalogue: TagCatalogue; selected: string[]; group: TagGroupKind }) {
  const full = selected.length >= MAX_TAG_FILTERS;
  const withGroup = (href: string) => `${href}${href.includes("?") ? "&" : "?"}group=${group}`;
  return (
    <section aria-labelledby="tag-filter-heading" className="rounded-2xl border border-primary/15 p-5">
      <h2 id="tag-filter-heading" className="text-lg font-bold">
        Search By Tag
      </h2>
      {selected.length > 0 ? (
        <div className="mt-3">
          <p className="text-sm text-muted">Filtering by ({selected.length} of {MAX_TAG_FILTERS}):</p>
          <ul className="mt-2 flex flex-wrap gap-2" aria-label="Selected tags">
            {selected.map((tag) => (
              <li key={tag}>
                <Link
                  to={withGroup(listHref(selected.filter((t) => t !== tag)))}
                  className="inline-flex items-center gap-1 rounded-full bg-primary px-3 py-1 text-sm font-medium text-white no-underline"
                  aria-label={`Remove filter ${tag}`}
                >
                  {tag} <span aria-hidden="true">×</span>
                </Link>
              </li>
            ))}
            <li>
              <Link to={withGroup(listHref([]))} className="inline-block px-2 py-1 text-sm">
                Clear all
              </Link>
            </li>
          </ul>
        </div>
      ) : null}

      <nav aria-label="Tag groups" className="mt-4 flex flex-wrap gap-2">
        {TAG_GROUPS.map((entry) => (
          <Link
            key={entry.kind}
            to={`${listHref(selected)}${selected.length ? "&" : "?"}group=${entry.kind}`}
            aria-current={entry.kind === group ? "true" : undefined}
            className={`rounded-md px-3 py-1.5 text-sm font-medium no-underline ${entry.kind === group ? "bg-ink text-white" : "bg-primary/5 text-ink hover:bg-primary/10"}`}
          >
            {entry.label}
          </Link>
        ))}
      </nav>

      {full ? (
        <p role="status" className="mt-3 text-sm font-medium text-ink">
          You can filter by at most {MAX_TAG_FILTERS} tags at a time. Remove one to add another.
        </p>
      ) : null}
      <ul className="mt-3 flex max-h-64 flex-wrap gap-2 overflow-y-auto" aria-label={`${TAG_GROUPS.find((g) => g.kind === group)?.label} tags`}>
        {catalogue[group].map((tag) => {
          const active = selected.includes(tag);
          const next = active ? selected.filter((t) => t !== tag) : [...selected, tag];
          return <TagChip key={tag} tag={tag} active={active} selectedNote=" (selected)" disabled={!active && full} to={withGroup(listHref(next))} />;
        })}
      </ul>
    </section>
  );
}
