import { MAX_SPONSOR_PAGE, MAX_SPONSOR_TAG_FILTERS, type DirectorySearch } from "#isomorphic/sponsor-directory-links";
import { searchTerms } from "./names";

export const MAX_NAME_QUERY_CHARS = 100;

export type DirectoryQuery = DirectorySearch & {
  /** The words the name must start words with (names.ts); [] is no name search. */
  terms: string[];
  /** 1-based. */
  page: number;
};

export type ParsedDirectoryQuery = { query: DirectoryQuery; error: string | null };

/**
 * Reads `tags[]`, `name` and `page` from the address. Nothing in it fails the
 * page: unknown tags, a 7th tag or a page out of range are dropped with a
 * message a person can act on, and the rest of the search still runs.
 */
export function parseDirectoryQuery(params: URLSearchParams, knownTags: ReadonlySet<string>): ParsedDirectoryQuery {
  const errors: string[] = [];
  const asked = [...new Set(params.getAll("tags[]").map((tag) => tag.trim().toLowerCase()).filter(Boolean))];
  const unknown = asked.filter((tag) => !knownTags.has(tag));
  if (unknown.length > 0) errors.push(`Unknown tag: ${unknown.slice(0, 3).map((t) => `“${t.slice(0, 60)}”`).join(", ")}.`);
  let tags = asked.filter((tag) => knownTags.has(tag));
  if (tags.length > MAX_SPONSOR_TAG_FILTERS) {
    errors.push(`You can search by at most ${MAX_SPONSOR_TAG_FILTERS} tags at a time.`);
    tags = tags.slice(0, MAX_SPONSOR_TAG_FILTERS);
  }
  const name = (params.get("name") ?? "").replaceAll("\0", "").trim().slice(0, MAX_NAME_QUERY_CHARS);
  const pageParam = params.get("page");
  let page = 1;
  if (pageParam !== null) {
    const parsed = /^[0-9]{1,6}$/.test(pageParam) ? Number(pageParam) : NaN;
    if (parsed >= 1 && parsed <= MAX_SPONSOR_PAGE) page = parsed;
    else errors.push("That page link is not valid. Here is the first page.");
  }
  return { query: { tags, name, terms: searchTerms(name), page }, error: errors.length ? errors.join(" ") : null };
}
