import { sql, type AnyColumn, type SQL } from "drizzle-orm";
import { bioPages } from "#server/platform/db/schema";

/**
 * The header's "My page": the owner's only page, or null with none or several
 * (then it leads to the dashboard of pages). A column of the signed-in lookup
 * (server/domains/auth/session.ts), so the header costs no query of its own: a probe
 * of bio_pages_uid_idx, at most two rows read.
 */
export function onlyBioPageColumn(uid: AnyColumn): SQL<string | null> {
  return sql<string | null>`(select case when count(*) = 1 then min(p.id) end from (select ${bioPages.id} as id from ${bioPages} where ${bioPages.uid} = ${uid} limit 2) p)`;
}

/** Whether the person has any bio page (the header's "Earnings" is for people with one). */
export function hasBioPageColumn(uid: AnyColumn): SQL<boolean> {
  return sql<boolean>`exists (select 1 from ${bioPages} where ${bioPages.uid} = ${uid})`;
}

/** What the header needs to know of someone's pages. */
export type HeaderPages = { onlyPageId: string | null; hasPage: boolean };
