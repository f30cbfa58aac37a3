import { and, asc, count, eq, inArray, max, ne } from "drizzle-orm";
import { nanoid } from "nanoid";
import { MEMBERSHIP_LIMITS } from "#isomorphic/membership-limits";
import { DEFAULT_CURRENCY } from "#isomorphic/payment-limits";
import { isBioPageId } from "#server/domains/bio/endings";
import type { Db } from "#server/platform/db/client";
import { bioPages, connectedAccounts, memberships, membershipTiers, type MembershipStatus, type MembershipTierStatus } from "#server/platform/db/schema";
import { domainError, refusal, success, type DomainError, type FieldRefusal, type Refusal, type Success } from "#server/platform/errors";
import { parseTierForm, type TierFieldErrors, type TierFields, type TierInput } from "./tier-form";

/**
 * A bio page's membership tiers, the owner's side (ADR 0084): up to five offered at once, each
 * added, changed, moved, paused, resumed or retired by the page's owner only. Pausing and retiring
 * never touch who already belongs: their subscription keeps its own price, and the writer
 * (sync.ts) alone changes a membership.
 */

/** A tier as the editor, the public page and the join page read it; prices in minor units of `currency`. */
export type MembershipTier = TierFields & {
  id: string;
  bioPageId: string;
  currency: string;
  status: MembershipTierStatus;
  position: number;
  /** Memberships that still run (active, past due, cancelled until their period ends): what the limit counts. */
  members: number;
};

/** The statuses of a membership that still holds a place in its tier. */
export const RUNNING_MEMBERSHIP_STATUSES = ["active", "past_due", "cancelled"] as const satisfies readonly MembershipStatus[];

type Owner = { uid: string };
type NotFound = DomainError<"not-found">;
export type TooManyTiers = Refusal<"resource-exhausted", "TOO_MANY_TIERS">;
export type TierAction = "pause" | "resume" | "retire";

const NO_PAGE: NotFound = domainError("not-found", "This page doesn't exist or was deleted.");
const NO_TIER: NotFound = domainError("not-found", "This tier doesn't exist or isn't yours.");
// Ours are `tier_` and 12 more; anything much longer is no id of ours and is not looked up.
const TIER_ID = /^[A-Za-z0-9_-]{1,40}$/;
export const isTierId = (value: string) => TIER_ID.test(value);

const TOO_MANY: TooManyTiers = refusal(
  "resource-exhausted",
  "TOO_MANY_TIERS",
  `A page can offer at most ${MEMBERSHIP_LIMITS.tiersPerPage} tiers at once, paused ones included. Retire one to add another.`,
);

const COLUMNS = {
  id: membershipTiers.id,
  bioPageId: membershipTiers.bioPageId,
  name: membershipTiers.name,
  monthlyPrice: membershipTiers.monthlyPrice,
  yearlyPrice: membershipTiers.yearlyPrice,
  currency: membershipTiers.currency,
  benefits: membershipTiers.benefits,
  memberLimit: membershipTiers.memberLimit,
  welcomeMessage: membershipTiers.welcomeMessage,
  status: membershipTiers.status,
  position: membershipTiers.position,
};

/** Running members per tier of one page, in one grouped read (the page-and-status index). */
async function membersByTier(db: Db, bioPageId: string): Promise<Map<string, number>> {
  const rows = await db
    .select({ tierId: memberships.tierId, n: count() })
    .from(memberships)
    .where(and(eq(memberships.bioPageId, bioPageId), inArray(memberships.status, [...RUNNING_MEMBERSHIP_STATUSES])))
    .groupBy(memberships.tierId);
  return new Map(rows.map((row) => [row.tierId, Number(row.n)]));
}

/**
 * Every tier of a page, paused and retired ones too, in the page's order with how many members
 * each has. No owner check: the public page and the join page read it too, and show only what
 * they offer.
 */
export async function readPageTiers(db: Db, bioPageId: string): Promise<MembershipTier[]> {
  const [rows, members] = await Promise.all([
    db.select(COLUMNS).from(membershipTiers).where(eq(membershipTiers.bioPageId, bioPageId)).orderBy(asc(membershipTiers.position), asc(membershipTiers.created), asc(membershipTiers.id)),
    membersByTier(db, bioPageId),
  ]);
  return rows.map((row) => ({ ...row, members: members.get(row.id) ?? 0 }));
}

/** One tier by id with its members, whatever its page; null when there is none. */
export async function readTier(db: Db, tierId: string): Promise<MembershipTier | null> {
  if (!isTierId(tierId)) return null;
  const [row] = await db.select(COLUMNS).from(membershipTiers).where(eq(membershipTiers.id, tierId));
  if (!row) return null;
  const [counted] = await db
    .select({ n: count() })
    .from(memberships)
    .where(and(eq(memberships.tierId, tierId), inArray(memberships.status, [...RUNNING_MEMBERSHIP_STATUSES])));
  return { ...row, members: Number(counted?.n ?? 0) };
}

/** Places left in a tier: null when it has no limit, 0 when full. */
export function spotsLeft(tier: Pick<MembershipTier, "memberLimit" | "members">): number | null {
  return tier.memberLimit === null ? null : Math.max(0, tier.memberLimit - tier.members);
}

export type OwnTiers = {
  page: { id: string; name: string; customEnding: string };
  tiers: MembershipTier[];
  /** The owner's payout account is complete: only then does the public page offer the tiers. */
  takesPayments: boolean;
};

/** The owner's page's tiers for the editor; someone else's page (or none) is "not found". */
export async function listOwnTiers(db: Db, owner: Owner, pageId: string): Promise<Success<OwnTiers> | NotFound> {
  if (!isBioPageId(pageId)) return NO_PAGE;
  const [page] = await db
    .select({ id: bioPages.id, name: bioPages.name, customEnding: bioPages.customEnding, completed: connectedAccounts.completed })
    .from(bioPages)
    .leftJoin(connectedAccounts, eq(connectedAccounts.uid, bioPages.uid))
    .where(and(eq(bioPages.id, pageId), eq(bioPages.uid, owner.uid)));
  if (!page) return NO_PAGE;
  const { completed, ...shown } = page;
  return success({ page: shown, tiers: await readPageTiers(db, pageId), takesPayments: completed === true });
}

/**
 * Runs `write` with the owner's page row locked, so two writes to one page's tiers (two tabs
 * adding the sixth) happen one after the other; someone else's page is "not found".
 */
async function onOwnPage<T extends object>(db: Db, owner: Owner, pageId: string, write: (tx: Db) => Promise<T | NotFound>): Promise<T | NotFound> {
  if (!isBioPageId(pageId)) return NO_PAGE;
  return db.transaction(async (tx) => {
    const [page] = await tx.select({ id: bioPages.id }).from(bioPages).where(and(eq(bioPages.id, pageId), eq(bioPages.uid, owner.uid))).for("update");
    return page ? write(tx) : NO_PAGE;
  });
}

/** `write` on one of the owner's tiers, its page locked; a tier of anyone else's page is "not found" as a missing one. */
async function onOwnTier<T extends object>(db: Db, owner: Owner, tierId: string, write: (tx: Db, tier: MembershipTier) => Promise<T | NotFound>): Promise<T | NotFound> {
  if (!isTierId(tierId)) return NO_TIER;
  const [found] = await db
    .select({ bioPageId: membershipTiers.bioPageId })
    .from(membershipTiers)
    .innerJoin(bioPages, eq(bioPages.id, membershipTiers.bioPageId))
    .where(and(eq(membershipTiers.id, tierId), eq(bioPages.uid, owner.uid)));
  if (!found) return NO_TIER;
  const done = await onOwnPage(db, owner, found.bioPageId, async (tx) => {
    const tier = await readTier(tx, tierId);
    return tier && tier.bioPageId === found.bioPageId ? write(tx, tier) : NO_TIER;
  });
  return done === NO_PAGE ? NO_TIER : done;
}

async function offeredCount(tx: Db, pageId: string): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(membershipTiers)
    .where(and(eq(membershipTiers.bioPageId, pageId), ne(membershipTiers.status, "retired")));
  return Number(row?.n ?? 0);
}

/** Adds a tier at the end of the owner's page's list: at most five offered (active or paused) at once. */
export async function createTier(
  db: Db,
  owner: Owner,
  pageId: string,
  input: TierInput,
  now = new Date(),
): Promise<Success<{ tier: MembershipTier }> | FieldRefusal<TierFieldErrors> | TooManyTiers | NotFound> {
  const parsed = parseTierForm(input);
  return onOwnPage(db, owner, pageId, async (tx) => {
    if ((await offeredCount(tx, pageId)) >= MEMBERSHIP_LIMITS.tiersPerPage) return TOO_MANY;
    // Checked after ownership, so a stranger learns nothing from the form's messages.
    if (parsed.kind === "ERROR") return parsed;
    const [last] = await tx.select({ position: max(membershipTiers.position) }).from(membershipTiers).where(eq(membershipTiers.bioPageId, pageId));
    const row = {
      id: `tier_${nanoid(12)}`,
      bioPageId: pageId,
      currency: DEFAULT_CURRENCY,
      status: "active" as const,
      position: (last?.position ?? -1) + 1,
      ...parsed.fields,
    };
    await tx.insert(membershipTiers).values({ ...row, created: now, updatedAt: now });
    return success({ tier: { ...row, members: 0 } });
  });
}

/**
 * Changes one of the owner's tiers. New prices are for those who join from now on: a member's
 * subscription keeps the price they joined at. A limit below the members it has makes it full.
 */
export async function updateTier(
  db: Db,
  owner: Owner,
  tierId: string,
  input: TierInput,
  now = new Date(),
): Promise<Success<{ tier: MembershipTier }> | FieldRefusal<TierFieldErrors> | NotFound> {
  const parsed = parseTierForm(input);
  return onOwnTier(db, owner, tierId, async (tx, tier) => {
    if (parsed.kind === "ERROR") return parsed;
    await tx
      .update(membershipTiers)
      .set({ ...parsed.fields, updatedAt: now })
      .where(eq(membershipTiers.id, tierId));
    return success({ tier: { ...tier, ...parsed.fields } });
  });
}

/**
 * Pauses (no new members, the page says so), resumes or retires (off the page) one of the owner's
 * tiers. Members are not touched. Resuming a retired tier offers it again, within the five.
 * Asking for the state it is in already changes nothing (`changed` false).
 */
export async function setTierStatus(
  db: Db,
  owner: Owner,
  tierId: string,
  action: TierAction,
  now = new Date(),
): Promise<Success<{ tier: MembershipTier; changed: boolean }> | TooManyTiers | NotFound> {
  const next: MembershipTierStatus = action === "pause" ? "paused" : action === "retire" ? "retired" : "active";
  return onOwnTier(db, owner, tierId, async (tx, tier) => {
    if (tier.status === next) return success({ tier, changed: false });
    if (tier.status === "retired" && (await offeredCount(tx, tier.bioPageId)) >= MEMBERSHIP_LIMITS.tiersPerPage) return TOO_MANY;
    await tx.update(membershipTiers).set({ status: next, updatedAt: now }).where(eq(membershipTiers.id, tierId));
    return success({ tier: { ...tier, status: next }, changed: true });
  });
}

/**
 * Moves one of the owner's offered tiers a place up or down among the offered ones; at the end
 * already, or retired, nothing changes (`moved` false). The list is numbered afresh, retired tiers
 * last, so gaps never matter.
 */
export async function moveTier(db: Db, owner: Owner, tierId: string, direction: "up" | "down"): Promise<Success<{ moved: boolean }> | NotFound> {
  return onOwnTier(db, owner, tierId, async (tx, tier) => {
    const all = await readPageTiers(tx, tier.bioPageId);
    const ids = all.filter((row) => row.status !== "retired").map((row) => row.id);
    const retired = all.filter((row) => row.status === "retired").map((row) => row.id);
    const from = ids.indexOf(tierId);
    const to = direction === "up" ? from - 1 : from + 1;
    if (from < 0 || to < 0 || to >= ids.length) return success({ moved: false });
    [ids[from], ids[to]] = [ids[to]!, ids[from]!];
    for (const [position, id] of [...ids, ...retired].entries()) {
      await tx.update(membershipTiers).set({ position }).where(eq(membershipTiers.id, id));
    }
    return success({ moved: true });
  });
}
