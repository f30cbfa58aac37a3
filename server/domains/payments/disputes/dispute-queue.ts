import { and, asc, desc, eq, gte, inArray, sql } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { disputes, sponsorSessions, user, type DisputeStatus } from "#server/platform/db/schema";
import { PAID_STATUSES } from "#server/domains/payments/records/sponsor-sessions";

/**
 * The creator flag (ADR 0053): over the last DISPUTE_WINDOW_DAYS, disputes
 * opened on a creator's payments ÷ their payments (sessions paid in the
 * window, whatever happened since) above 0.4 % — the card networks' early
 * warning line — and at least DISPUTE_FLAG_MINIMUM disputes, so one unlucky
 * chargeback on a small creator's few payments does not flag them.
 */
export const DISPUTE_RATIO_LIMIT = 0.004;
export const DISPUTE_WINDOW_DAYS = 90;
export const DISPUTE_FLAG_MINIMUM = 2;

export type DisputeRatio = { uid: string; disputes: number; payments: number; ratio: number; flagged: boolean };

const windowStart = (now: Date) => new Date(now.getTime() - DISPUTE_WINDOW_DAYS * 86_400_000);

const isFlagged = (disputeCount: number, payments: number) =>
  disputeCount >= DISPUTE_FLAG_MINIMUM && disputeCount / Math.max(payments, 1) > DISPUTE_RATIO_LIMIT;

async function paymentsIn(db: Db, since: Date, uids?: string[]): Promise<Map<string, number>> {
  const rows = await db
    .select({ uid: sponsorSessions.posterUid, n: sql<number>`count(*)::int` })
    .from(sponsorSessions)
    .where(and(inArray(sponsorSessions.status, [...PAID_STATUSES]), gte(sponsorSessions.created, since), uids ? inArray(sponsorSessions.posterUid, uids) : undefined))
    .groupBy(sponsorSessions.posterUid);
  return new Map(rows.filter((r) => r.uid).map((r) => [r.uid!, r.n]));
}

async function disputesIn(db: Db, since: Date, uids?: string[]): Promise<Map<string, number>> {
  const rows = await db
    .select({ uid: sponsorSessions.posterUid, n: sql<number>`count(*)::int` })
    .from(disputes)
    .innerJoin(sponsorSessions, eq(sponsorSessions.id, disputes.sessionId))
    .where(and(gte(disputes.openedAt, since), uids ? inArray(sponsorSessions.posterUid, uids) : undefined))
    .groupBy(sponsorSessions.posterUid);
  return new Map(rows.filter((r) => r.uid).map((r) => [r.uid!, r.n]));
}

function ratioOf(uid: string, disputeCount: number, payments: number): DisputeRatio {
  return { uid, disputes: disputeCount, payments, ratio: payments > 0 ? disputeCount / payments : disputeCount > 0 ? 1 : 0, flagged: isFlagged(disputeCount, payments) };
}

/** One creator's dispute ratio over the window, and whether it flags them. */
export async function disputeRatioOf(db: Db, uid: string, now = new Date()): Promise<DisputeRatio> {
  const since = windowStart(now);
  const [payments, counts] = await Promise.all([paymentsIn(db, since, [uid]), disputesIn(db, since, [uid])]);
  return ratioOf(uid, counts.get(uid) ?? 0, payments.get(uid) ?? 0);
}

/** Every flagged creator, highest ratio first (other back-office screens mark them too). */
export async function flaggedCreators(db: Db, now = new Date()): Promise<DisputeRatio[]> {
  const since = windowStart(now);
  const counts = await disputesIn(db, since);
  const candidates = [...counts].filter(([, n]) => n >= DISPUTE_FLAG_MINIMUM).map(([uid]) => uid);
  if (candidates.length === 0) return [];
  const payments = await paymentsIn(db, since, candidates);
  return candidates
    .map((uid) => ratioOf(uid, counts.get(uid)!, payments.get(uid) ?? 0))
    .filter((r) => r.flagged)
    .sort((a, b) => b.ratio - a.ratio);
}

export type QueuedDispute = {
  id: string;
  sessionId: string;
  status: DisputeStatus;
  amount: number;
  currency: string;
  reason: string;
  providerFee: number;
  evidenceDueBy: Date | null;
  openedAt: Date;
  closedAt: Date | null;
  creator: { uid: string; name: string; email: string } | null;
  creatorFlag: DisputeRatio | null;
};

export const DISPUTE_QUEUE_LIMIT = 200;

/**
 * The staff queue: open disputes first, the nearest deadline first (no
 * deadline last), then closed ones, the latest first; each with its creator
 * and whether the creator is flagged.
 */
export async function disputeQueue(db: Db, now = new Date()): Promise<QueuedDispute[]> {
  const open = sql`${disputes.status} in ('needs_response', 'under_review')`;
  const rows = await db
    .select({
      id: disputes.id,
      sessionId: disputes.sessionId,
      status: disputes.status,
      amount: disputes.amount,
      currency: disputes.currency,
      reason: disputes.reason,
      providerFee: disputes.providerFee,
      evidenceDueBy: disputes.evidenceDueBy,
      openedAt: disputes.openedAt,
      closedAt: disputes.closedAt,
      uid: user.id,
      name: user.name,
      email: user.email,
    })
    .from(disputes)
    .innerJoin(sponsorSessions, eq(sponsorSessions.id, disputes.sessionId))
    .leftJoin(user, eq(user.id, sponsorSessions.posterUid))
    .orderBy(desc(open), asc(sql`case when ${open} then ${disputes.evidenceDueBy} end`), desc(disputes.openedAt), asc(disputes.id))
    .limit(DISPUTE_QUEUE_LIMIT);
  const flags = new Map((await flaggedCreators(db, now)).map((f) => [f.uid, f]));
  return rows.map(({ uid, name, email, ...row }) => ({
    ...row,
    creator: uid ? { uid, name: name ?? "", email: email ?? "" } : null,
    creatorFlag: uid ? (flags.get(uid) ?? null) : null,
  }));
}
