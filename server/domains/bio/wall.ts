import { and, asc, desc, eq, inArray, ne, not } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { bioPages, memberships, membershipTiers, sponsorSessions, type SponsorSessionStatus } from "#server/platform/db/schema";
import { domainError, success, type DomainError, type Success } from "#server/platform/errors";
import { SUPPORTERS_LIST_SIZE, WALL_SIZE } from "#isomorphic/supporter-wall";
import { isBioPageId } from "./endings";

/**
 * The supporter wall (docs/decisions/0035-supporter-wall-and-goal.md): the
 * page's latest paid supports, as the public page shows them, and the owner's
 * list of every support with Hide / Show.
 */

/**
 * One supporter on the public wall. A private support keeps its name,
 * message and amount off the page (null here): it shows only that someone
 * supported, and when.
 */
export type WallEntry = {
  id: string;
  private: boolean;
  /** The name the supporter gave, trimmed; null when none (the page says "Someone") or private. */
  name: string | null;
  message: string | null;
  amount: number | null;
  currency: string;
  at: Date;
};

const trimmed = (text: string | null) => text?.trim() || null;

/**
 * The page's latest supports still standing: paid and not refunded or
 * disputed (status completed), not hidden by the owner; newest first. A
 * membership's paid periods are not among them: members are shown once each,
 * by tier (readWallMembers), not once per renewal.
 */
export async function readWall(db: Db, pageId: string, limit = WALL_SIZE): Promise<WallEntry[]> {
  const rows = await db
    .select({
      id: sponsorSessions.id,
      private: sponsorSessions.private,
      name: sponsorSessions.supporterName,
      message: sponsorSessions.message,
      amount: sponsorSessions.amount,
      currency: sponsorSessions.currency,
      at: sponsorSessions.created,
    })
    .from(sponsorSessions)
    .where(
      and(eq(sponsorSessions.bioPageId, pageId), eq(sponsorSessions.status, "completed"), not(sponsorSessions.hiddenFromWall), ne(sponsorSessions.kind, "membership")),
    )
    .orderBy(desc(sponsorSessions.created), desc(sponsorSessions.id))
    .limit(limit);
  return rows.map((row) =>
    row.private
      ? { id: row.id, private: true, name: null, message: null, amount: null, currency: row.currency, at: row.at }
      : { ...row, name: trimmed(row.name), message: trimmed(row.message) },
  );
}

/** One tier's current members on the wall: the names they gave, and how many chose to stay private or gave none. */
export type WallTier = { tierName: string; names: string[]; others: number };

/** Members still belonging (paid, past due while the provider retries, or cancelled with time left). */
const CURRENT_MEMBER = inArray(memberships.status, ["active", "past_due", "cancelled"]);

/**
 * The page's current members by tier, in the tiers' order, earliest member first (the longest
 * standing lead). A private member or one who gave no name is counted, not named. Tiers with
 * nobody are left out; a retired tier's members still show under it, as they still belong.
 */
export async function readWallMembers(db: Db, pageId: string, namesPerTier = WALL_SIZE): Promise<WallTier[]> {
  const rows = await db
    .select({ tierId: membershipTiers.id, tierName: membershipTiers.name, name: memberships.memberName, private: memberships.private })
    .from(memberships)
    .innerJoin(membershipTiers, eq(membershipTiers.id, memberships.tierId))
    .where(and(eq(memberships.bioPageId, pageId), CURRENT_MEMBER))
    .orderBy(asc(membershipTiers.position), asc(membershipTiers.created), asc(memberships.startedAt), asc(memberships.id));
  const tiers = new Map<string, WallTier>();
  for (const row of rows) {
    const tier = tiers.get(row.tierId) ?? { tierName: row.tierName, names: [], others: 0 };
    tiers.set(row.tierId, tier);
    const name = row.private ? null : trimmed(row.name);
    if (name && tier.names.length < namesPerTier) tier.names.push(name);
    else tier.others += 1;
  }
  return [...tiers.values()];
}

/** One support as its page's owner sees it in the Supporters list. */
export type SupporterRow = {
  id: string;
  name: string | null;
  message: string;
  amount: number;
  currency: string;
  status: SponsorSessionStatus;
  private: boolean;
  hidden: boolean;
  /** On the public wall when it is turned on: paid, standing, not private-hidden. */
  onWall: boolean;
  at: Date;
};

export type SupportersList = { page: { id: string; name: string; customEnding: string; wallEnabled: boolean }; supporters: SupporterRow[] };

type Owner = { uid: string };
const NOT_FOUND = domainError("not-found", "This page doesn't exist or was deleted.");
/** Statuses of money that arrived: what the owner can hide or show. */
const PAID: SponsorSessionStatus[] = ["completed", "refunded", "disputed"];

/** The owner's page with its paid supports, newest first; someone else's page is "not found". */
export async function listSupporters(db: Db, owner: Owner, pageId: string): Promise<Success<{ list: SupportersList }> | DomainError<"not-found">> {
  if (!isBioPageId(pageId)) return NOT_FOUND;
  const [page] = await db
    .select({ id: bioPages.id, name: bioPages.name, customEnding: bioPages.customEnding, wallEnabled: bioPages.wallEnabled })
    .from(bioPages)
    .where(and(eq(bioPages.id, pageId), eq(bioPages.uid, owner.uid)));
  if (!page) return NOT_FOUND;
  const rows = await db
    .select({
      id: sponsorSessions.id,
      name: sponsorSessions.supporterName,
      message: sponsorSessions.message,
      amount: sponsorSessions.amount,
      currency: sponsorSessions.currency,
      status: sponsorSessions.status,
      private: sponsorSessions.private,
      hidden: sponsorSessions.hiddenFromWall,
      at: sponsorSessions.created,
    })
    .from(sponsorSessions)
    .where(and(eq(sponsorSessions.bioPageId, page.id), inArray(sponsorSessions.status, PAID)))
    .orderBy(desc(sponsorSessions.created), desc(sponsorSessions.id))
    .limit(SUPPORTERS_LIST_SIZE);
  const supporters = rows.map((row) => ({ ...row, name: trimmed(row.name), onWall: row.status === "completed" && !row.hidden }));
  return success({ list: { page, supporters } });
}

/**
 * Hides a support from the page's wall, or shows it again. Only the page's
 * owner can: anyone else's support (or none) is "not found". The write
 * redraws the cached page (the trigger of migration 0027).
 */
export async function setHiddenFromWall(
  db: Db,
  owner: Owner,
  input: { pageId: string; sessionId: string; hidden: boolean },
): Promise<Success<{ hidden: boolean }> | DomainError<"not-found">> {
  if (!isBioPageId(input.pageId) || !/^ss_[0-9a-z]{1,64}$/.test(input.sessionId)) return domainError("not-found", "This supporter isn't on your page.");
  const owned = db.select({ id: bioPages.id }).from(bioPages).where(and(eq(bioPages.id, input.pageId), eq(bioPages.uid, owner.uid)));
  const updated = await db
    .update(sponsorSessions)
    .set({ hiddenFromWall: input.hidden })
    .where(and(eq(sponsorSessions.id, input.sessionId), eq(sponsorSessions.bioPageId, input.pageId), inArray(sponsorSessions.bioPageId, owned)))
    .returning({ id: sponsorSessions.id });
  if (updated.length === 0) return domainError("not-found", "This supporter isn't on your page.");
  return success({ hidden: input.hidden });
}
