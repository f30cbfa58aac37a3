import type { SearchLog } from "#server/search-log/search-log";
import type { DirectoryQuery } from "./query";

/**
 * SPEC §7.2: a sponsor search is logged as `search` / `tag_<tag>` for each tag
 * and `name_<query>` for a name, through the batched search log (the same one
 * the opportunity list uses), so a page view never waits on a log write.
 */
export function logSponsorSearch(searchLog: Pick<SearchLog, "record">, uid: string, query: Pick<DirectoryQuery, "tags" | "name">): void {
  const terms = [...query.tags.map((tag) => `tag_${tag}`), ...(query.name ? [`name_${query.name.toLowerCase()}`] : [])];
  if (terms.length === 0) return;
  searchLog.record(uid, "external_sponsor_blurbs", terms);
}
