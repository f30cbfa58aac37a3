// Browser-safe: the directory's limits and addresses, with no imports, so the
// components that draw filters and pagers ship without zod or drizzle.

export const SPONSOR_PAGE_SIZE = 10;
export const MAX_SPONSOR_TAG_FILTERS = 6;
/** Page numbers beyond this are refused: page N reads N×10 rows before its own. */
export const MAX_SPONSOR_PAGE = 500;
/** Recently Added lists this many of the newest companies (3 pages), newest first: what "recent" means here. */
export const RECENT_SPONSOR_COUNT = 30;
export const SPONSORS_PATH = "/app/sponsors";
export const PREVIEWS_PATH = "/app/sponsors/previews";
export const RECENT_PATH = "/app/sponsors/recent";

export type DirectorySearch = { tags: string[]; name: string };

/** The address of a search's page (1-based); page 1 is left out, so changing filters starts again at page 1. */
export function directoryHref(search: DirectorySearch, page = 1, path = SPONSORS_PATH): string {
  const params = new URLSearchParams();
  for (const tag of search.tags) params.append("tags[]", tag);
  if (search.name) params.set("name", search.name);
  if (page > 1) params.set("page", String(page));
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}

/** The address of one company's page. */
export function sponsorHref(id: string): string {
  return `${SPONSORS_PATH}/${encodeURIComponent(id)}`;
}

/** The periods, in days, the back office lists the directory's unanswered searches over. */
export const MISS_PERIODS = [7, 30, 90] as const;
export type MissPeriod = (typeof MISS_PERIODS)[number];

export function parseMissPeriod(value: string | null): MissPeriod {
  const days = Number(value);
  return (MISS_PERIODS as readonly number[]).includes(days) ? (days as MissPeriod) : 30;
}
