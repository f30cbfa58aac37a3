import type { SearchLog } from "#server/platform/search-log/search-log";
import type { DirectoryQuery } from "./query";

/**
 * SPEC §7.2: a sponsor search is logged as `search` / `tag_<tag>` for each tag
 * and `name_<query>` for a name, through the batched search log (the same one
 * the opportunity list uses), so a page view never waits on a log write.
 */
export function logSponsorSearch(
  searchLog: Pick<SearchLog, "record">,
  uid: string,
  query: Pick<DirectoryQuery, "tags" | "name">,
  found: number | null = null,
): void {
  const terms = [...query.tags.map((tag) => `tag_${tag}`), ...(query.name ? [`name_${query.name.toLowerCase()}`] : [])];
  if (terms.length === 0) return;
  searchLog.record(uid, SPONSOR_SEARCH_COLLECTION, terms);
  // A search that found nothing is counted again under its own collection, so the back office's
  // "searched and not found" report is one indexed read of logs, not a join with the directory.
  if (found === 0) searchLog.record(uid, SPONSOR_MISS_COLLECTION, terms);
}

export const SPONSOR_SEARCH_COLLECTION = "external_sponsor_blurbs";
/** Searches (same terms as above) whose first page had no company. */
export const SPONSOR_MISS_COLLECTION = "external_sponsor_misses";
