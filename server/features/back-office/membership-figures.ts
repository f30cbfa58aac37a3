import { and, eq, gte, sql } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { ledgerEntries, MEMBERSHIP_STATUSES, memberships, sponsorSessions, type MembershipStatus } from "#server/platform/db/schema";

/**
 * What operators watch of memberships (the `/metrics` gauges, server/main/service-metrics.ts), read
 * at scrape time from the tables the one writer keeps, so they need no counter in its code: one
 * grouped query each.
 */

/** How many memberships stand in each status, every status named (0 when none). */
export async function membershipsByStatus(db: Db): Promise<Record<MembershipStatus, number>> {
  const rows = await db.select({ status: memberships.status, count: sql<number>`count(*)::int` }).from(memberships).groupBy(memberships.status);
  const counts = Object.fromEntries(MEMBERSHIP_STATUSES.map((status) => [status, 0])) as Record<MembershipStatus, number>;
  for (const row of rows) counts[row.status] = Number(row.count);
  return counts;
}

export const PAID_PERIODS_WINDOW_MS = 24 * 3_600_000;

/**
 * Membership periods paid in the 24 hours before `now`: the ledger's payment rows of sessions of
 * kind "membership" (first payments and renewals alike), by when the ledger recorded them. A
 * renewal run that stops shows as this falling while `sponsorgrid_memberships{status="active"}` holds.
 */
export async function membershipPeriodsPaidSince(db: Db, now: Date): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(ledgerEntries)
    .innerJoin(sponsorSessions, eq(sponsorSessions.id, ledgerEntries.sessionId))
    .where(and(eq(ledgerEntries.kind, "payment"), eq(sponsorSessions.kind, "membership"), gte(ledgerEntries.created, new Date(now.getTime() - PAID_PERIODS_WINDOW_MS))));
  return Number(row?.count ?? 0);
}
