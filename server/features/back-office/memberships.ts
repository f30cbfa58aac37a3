import { and, count, desc, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "#server/platform/db/client";
import { afterTimeKeyset, decodeTimeKeyset, encodeTimeKeyset, microsOf } from "#server/platform/db/keyset";
import {
  bioPages,
  MEMBERSHIP_STATUSES,
  memberships,
  membershipTiers,
  user,
  type MembershipInterval,
  type MembershipStatus,
} from "#server/platform/db/schema";

/**
 * Memberships as staff read them: every membership on the platform (newest first, a page at a
 * time by keyset on (created, id)), and one account's memberships on its page, as the creator
 * paid and as a member. Only reads: the memberships themselves change only through the one
 * writer that follows the provider (server/domains/memberships/).
 */
export const STAFF_MEMBERSHIPS_PAGE_SIZE = 25;

export type StaffMembershipFilters = { status: MembershipStatus | null };

/** The filters from the page's address; a status that is not one is ignored. */
export function readMembershipFilters(params: URLSearchParams): StaffMembershipFilters {
  const status = params.get("status");
  return { status: status && (MEMBERSHIP_STATUSES as readonly string[]).includes(status) ? (status as MembershipStatus) : null };
}

export type StaffMembershipRow = {
  id: string;
  created: Date;
  status: MembershipStatus;
  cancelAtPeriodEnd: boolean;
  currentPeriodEnd: Date | null;
  interval: MembershipInterval;
  amount: number;
  currency: string;
  tierName: string;
  pageName: string;
  pageEnding: string | null;
  /** Null once the creator's account is deleted (the membership stays for the ledger). */
  creatorEmail: string | null;
  /** The signed-in member's address, else the one given at checkout; null when neither is known. */
  memberEmail: string | null;
};

export type StaffMembershipList = {
  rows: StaffMembershipRow[];
  nextCursor: string | null;
  /** How many memberships are in each status, whatever status is chosen. */
  counts: Record<MembershipStatus, number>;
};

const creatorUser = alias(user, "creator_user");
const memberUser = alias(user, "member_user");

const zeroCounts = () => Object.fromEntries(MEMBERSHIP_STATUSES.map((status) => [status, 0])) as Record<MembershipStatus, number>;

const ROW_COLUMNS = {
  id: memberships.id,
  created: memberships.created,
  status: memberships.status,
  cancelAtPeriodEnd: memberships.cancelAtPeriodEnd,
  currentPeriodEnd: memberships.currentPeriodEnd,
  interval: memberships.interval,
  amount: memberships.amount,
  currency: memberships.currency,
  tierName: membershipTiers.name,
  pageName: bioPages.name,
  pageEnding: bioPages.customEnding,
  creatorEmail: creatorUser.email,
  memberEmail: sql<string | null>`coalesce(${memberUser.email}, ${memberships.memberEmail})`,
};

export async function listMembershipsForStaff(db: Db, filters: StaffMembershipFilters, options: { cursor?: string | null; pageSize?: number } = {}): Promise<StaffMembershipList> {
  const pageSize = options.pageSize ?? STAFF_MEMBERSHIPS_PAGE_SIZE;
  const after = decodeTimeKeyset(options.cursor);
  const where = and(
    filters.status ? eq(memberships.status, filters.status) : undefined,
    // Newest first: the next page holds what sorts after the last row, by (created, id) descending.
    after ? afterTimeKeyset(memberships.created, memberships.id, after) : undefined,
  );
  const [found, perStatus] = await Promise.all([
    db
      .select({ ...ROW_COLUMNS, micros: microsOf(memberships.created) })
      .from(memberships)
      .innerJoin(membershipTiers, eq(membershipTiers.id, memberships.tierId))
      .innerJoin(bioPages, eq(bioPages.id, memberships.bioPageId))
      .leftJoin(creatorUser, eq(creatorUser.id, memberships.creatorUid))
      .leftJoin(memberUser, eq(memberUser.id, memberships.memberUid))
      .where(where)
      .orderBy(desc(memberships.created), desc(memberships.id))
      .limit(pageSize + 1),
    db.select({ status: memberships.status, n: count() }).from(memberships).groupBy(memberships.status),
  ]);
  const shown = found.slice(0, pageSize);
  const last = shown.at(-1);
  const counts = zeroCounts();
  for (const { status, n } of perStatus) counts[status] = Number(n);
  return {
    rows: shown.map(({ micros: _micros, ...row }) => row),
    nextCursor: found.length > pageSize && last ? encodeTimeKeyset({ micros: last.micros, id: last.id }) : null,
    counts,
  };
}

/** Memberships that still renew: what the creator can count on next month. A cancelled one runs to its period's end but is not renewed. */
const RENEWING: readonly MembershipStatus[] = ["active", "past_due"];

export type AccountMemberships = {
  /** Memberships of the account's pages (the account is the creator paid). */
  asCreator: {
    counts: Record<MembershipStatus, number>;
    /**
     * Monthly recurring revenue per currency, in minor units: every renewing membership's amount
     * per month, a yearly one counted as a twelfth of its price (rounded per currency).
     */
    mrr: { currency: string; amount: number }[];
  };
  /** The account's own memberships of others' pages, newest first (by the signed-in fan, or by their address as a guest). */
  asMember: StaffMembershipRow[];
};

/** How many of an account's own memberships its page shows. */
export const ACCOUNT_MEMBERSHIPS_SHOWN = 50;

const exactSum = sql<string>`coalesce(sum(${memberships.amount}), 0)::bigint::text`;

export async function accountMemberships(db: Db, uid: string): Promise<AccountMemberships> {
  const [perStatus, renewing, own] = await Promise.all([
    db.select({ status: memberships.status, n: count() }).from(memberships).where(eq(memberships.creatorUid, uid)).groupBy(memberships.status),
    db
      .select({ currency: memberships.currency, interval: memberships.interval, sum: exactSum })
      .from(memberships)
      .where(and(eq(memberships.creatorUid, uid), inArray(memberships.status, [...RENEWING])))
      .groupBy(memberships.currency, memberships.interval),
    db
      .select(ROW_COLUMNS)
      .from(memberships)
      .innerJoin(membershipTiers, eq(membershipTiers.id, memberships.tierId))
      .innerJoin(bioPages, eq(bioPages.id, memberships.bioPageId))
      .leftJoin(creatorUser, eq(creatorUser.id, memberships.creatorUid))
      .leftJoin(memberUser, eq(memberUser.id, memberships.memberUid))
      .where(ownedBy(uid))
      .orderBy(desc(memberships.created), desc(memberships.id))
      .limit(ACCOUNT_MEMBERSHIPS_SHOWN),
  ]);
  const counts = zeroCounts();
  for (const { status, n } of perStatus) counts[status] = Number(n);
  const monthly = new Map<string, { month: number; year: number }>();
  for (const row of renewing) {
    const sums = monthly.get(row.currency) ?? { month: 0, year: 0 };
    sums[row.interval] += Number(row.sum);
    monthly.set(row.currency, sums);
  }
  const mrr = [...monthly.entries()]
    .map(([currency, sums]) => ({ currency, amount: sums.month + Math.round(sums.year / 12) }))
    .sort((a, b) => a.currency.localeCompare(b.currency));
  return { asCreator: { counts, mrr }, asMember: own };
}

/** A member is the signed-in fan who joined, or a guest who gave the account's own address at checkout. */
function ownedBy(uid: string): SQL {
  const address = sql`(select lower(${user.email}) from ${user} where ${user.id} = ${uid})`;
  return or(eq(memberships.memberUid, uid), and(sql`${memberships.memberUid} is null`, sql`lower(${memberships.memberEmail}) = ${address}`))!;
}
