import { and, asc, eq, ilike, isNull, or, sql } from "drizzle-orm";
import { ownerIsActive } from "#server/domains/accounts/active-owner";
import type { Db } from "#server/platform/db/client";
import { bioPages, connectedAccounts, profiles } from "#server/platform/db/schema";
import { httpUrl, isLinkType, LINK_LABELS, isShown } from "#server/domains/bio/links";

export const PROFILES_PAGE_SIZE = 12;
export const MAX_PROFILES_PAGE = 500;
export const MAX_PROFILE_QUERY_CHARS = 100;

/** A bio page as the Profiles directory shows it (ADR 0022). */
export type ProfileCard = {
  customEnding: string;
  name: string;
  /** The owner's public profile name; "" when they set none. */
  ownerName: string;
  blurb: string;
  linkLabels: string[];
  /** The owner can be paid (completed payout account): the page offers Sponsor and tips. */
  acceptsSponsorships: boolean;
  /** The owner's profile photo (server/domains/media/), or null. */
  photoId: string | null;
};

export type ProfilesPage = { items: ProfileCard[]; page: number; hasPrevious: boolean; hasNext: boolean };

/** `%`, `_` and `\` are literal in a search: a person types words, not patterns. */
function containsPattern(query: string): string {
  return `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Public bio pages, by page name (case-insensitive) then ending, 12 a page,
 * optionally those whose page name or owner's profile name contains `query`.
 * Like the sponsor list it reads one row more than a page instead of counting.
 * Pages of a disabled account are left out (ownerIsActive).
 */
export async function listProfiles(db: Db, query: string, page: number): Promise<ProfilesPage> {
  const pattern = query ? containsPattern(query) : null;
  const rows = await db
    .select({
      customEnding: bioPages.customEnding,
      name: bioPages.name,
      ownerName: profiles.name,
      blurb: bioPages.blurb,
      links: bioPages.links,
      completed: connectedAccounts.completed,
      photoId: profiles.photoId,
    })
    .from(bioPages)
    .leftJoin(profiles, eq(profiles.uid, bioPages.uid))
    .leftJoin(connectedAccounts, eq(connectedAccounts.uid, bioPages.uid))
    .where(and(ownerIsActive(bioPages.uid), isNull(bioPages.removedAt), pattern ? or(ilike(bioPages.name, pattern), ilike(profiles.name, pattern)) : undefined))
    .orderBy(sql`lower(${bioPages.name})`, asc(bioPages.customEnding))
    .limit(PROFILES_PAGE_SIZE + 1)
    .offset((page - 1) * PROFILES_PAGE_SIZE);
  const items = rows.slice(0, PROFILES_PAGE_SIZE).map((row) => {
    const types = row.links.filter((link) => isShown(link) && httpUrl(link.url) !== null).map((link) => link.type).filter(isLinkType);
    return {
      customEnding: row.customEnding,
      name: row.name,
      ownerName: row.ownerName ?? "",
      blurb: row.blurb,
      linkLabels: types.map((type) => LINK_LABELS[type]),
      acceptsSponsorships: row.completed === true,
      photoId: row.photoId ?? null,
    };
  });
  return { items, page, hasPrevious: page > 1, hasNext: rows.length > PROFILES_PAGE_SIZE };
}

/** `name` and `page` from the address; nothing here fails the page. */
export function parseProfilesQuery(params: URLSearchParams): { query: string; page: number } {
  const query = (params.get("name") ?? "").replaceAll("\0", "").trim().slice(0, MAX_PROFILE_QUERY_CHARS);
  const raw = params.get("page") ?? "1";
  const page = /^[0-9]{1,6}$/.test(raw) && Number(raw) >= 1 && Number(raw) <= MAX_PROFILES_PAGE ? Number(raw) : 1;
  return { query, page };
}
