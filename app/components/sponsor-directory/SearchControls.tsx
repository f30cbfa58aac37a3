import { useState, type MouseEvent, type FormEvent } from "react";
import { Form, Link } from "react-router";
import { directoryHref, MAX_SPONSOR_TAG_FILTERS, type DirectorySearch } from "#isomorphic/sponsor-directory-links";
import { ProNotice } from "./ProNotice";
import { TagChip } from "#app/components/TagChip";

type Props = {
  allTags: string[];
  search: DirectorySearch;
  /** Pro: every control searches. Otherwise each explains Pro and changes nothing. */
  pro: boolean;
  /** The current path and search, for the upsell's way back. */
  returnTo: string;
  /** False for a sponsor: the notice says what Pro is for rather than selling it. */
  upsell?: boolean;
};

/**
 * 'Search By Name' (a GET form: `name`) and 'Search By Tag' (chips: links that
 * add or remove one `tags[]`). Both live in the address, so reload and
 * back/forward keep the search, and both start again at page 1. For people
 * without Pro the same controls exist but, with JavaScript, only explain Pro;
 * without it they reach the server, which shows previews and says the same.
 */
export function SearchControls({ allTags, search, pro, returnTo, upsell = true }: Props) {
  const [notice, setNotice] = useState<string | null>(null);
  const explain = (what: string) => (event: MouseEvent | FormEvent) => {
    if (pro) return;
    event.preventDefault();
    setNotice(what);
  };
  const full = search.tags.length >= MAX_SPONSOR_TAG_FILTERS;
  return (
    <div className="grid content-start gap-6">
      {notice ? <ProNotice what={notice} returnTo={returnTo} id="pro-notice" upsell={upsell} /> : null}
      <section aria-labelledby="name-search-heading" className="rounded-2xl border border-primary/15 p-5">
        <h2 id="name-search-heading" className="text-lg font-bold">
          Search By Name
        </h2>
        <Form method="get" action="/app/sponsors" onSubmit={explain("Search by name")} className="mt-3 flex flex-wrap items-end gap-3" role="search">
          {search.tags.map((tag) => (
            <input key={tag} type="hidden" name="tags[]" value={tag} />
          ))}
          <label className="grid min-w-0 flex-1 gap-1">
            <span className="text-sm font-medium">Company name</span>
            <input
              type="search"
              name="name"
              defaultValue={search.name}
              key={search.name}
              maxLength={100}
              className="w-full rounded-lg border border-ink/20 px-3 py-2"
            />
          </label>
          <button type="submit" className="rounded-full bg-primary px-5 py-2 font-semibold text-white hover:bg-primary-dark">
            Search
          </button>
        </Form>
        {search.name && pro ? (
          <p className="mt-2 text-sm">
            <Link to={directoryHref({ ...search, name: "" })}>Clear the name search</Link>
          </p>
        ) : null}
      </section>

      <section aria-labelledby="tag-search-heading" className="rounded-2xl border border-primary/15 p-5">
        <h2 id="tag-search-heading" className="text-lg font-bold">
          Search By Tag
        </h2>
        {pro && search.tags.length > 0 ? (
          <p className="mt-2 text-sm">
            Showing companies with all of: {search.tags.join(", ")}. <Link to={directoryHref({ ...search, tags: [] })}>Clear tags</Link>
          </p>
        ) : null}
        {pro && full ? <p className="mt-2 text-sm font-medium">You can search by at most {MAX_SPONSOR_TAG_FILTERS} tags at a time. Remove one to add another.</p> : null}
        <ul className="mt-3 flex flex-wrap gap-2" aria-label="Sponsor tags">
          {allTags.map((tag) => {
            const active = pro && search.tags.includes(tag);
            const next = active ? search.tags.filter((t) => t !== tag) : [...search.tags, tag];
            return (
              <TagChip
                key={tag}
                tag={tag}
                active={active}
                selectedNote=" (selected, remove)"
                disabled={pro && !active && full}
                to={pro ? directoryHref({ ...search, tags: next }) : directoryHref({ tags: [tag], name: "" })}
                onClick={explain("Search by tag")}
              />
            );
          })}
        </ul>
      </section>
    </div>
  );
}
