import { and, desc, eq, gte, max, sql, sum } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { logs } from "#server/platform/db/schema";
import type { MissPeriod } from "#isomorphic/sponsor-directory-links";
import { SPONSOR_MISS_COLLECTION } from "./search-log";

export type SearchMiss = { kind: "name" | "tag"; text: string; count: number; lastSearched: string };

/**
 * What Pro members searched the directory for and did not find (SPEC §7.2's search log, the
 * searches whose first page was empty), most searched first, over the last `days`. `lastSearched`
 * is the start of the latest batch window that held it (the log aggregates a few seconds).
 */
export async function listSearchMisses(db: Db, days: MissPeriod, now = new Date(), limit = 25): Promise<SearchMiss[]> {
  const since = new Date(now.getTime() - days * 86_400_000);
  const total = sql<string>`${sum(logs.count)}`;
  const rows = await db
    .select({ term: logs.subtype, count: total, last: max(logs.created) })
    .from(logs)
    .where(and(eq(logs.collection, SPONSOR_MISS_COLLECTION), gte(logs.created, since)))
    .groupBy(logs.subtype)
    .orderBy(desc(total), desc(max(logs.created)), logs.subtype)
    .limit(limit);
  return rows.flatMap((row) => {
    const term = row.term ?? "";
    const kind = term.startsWith("tag_") ? "tag" : term.startsWith("name_") ? "name" : null;
    if (!kind || !row.last) return [];
    return [{ kind, text: term.slice(kind.length + 1), count: Number(row.count), lastSearched: new Date(row.last).toISOString() }];
  });
}
