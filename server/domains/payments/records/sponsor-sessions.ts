import { and, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { disputes, ledgerEntries, refundRequests, sponsorSessions, type DisputeStatus, type LedgerEntryKind, type SponsorSessionKind, type SponsorSessionStatus } from "#server/platform/db/schema";
import { domainError, type DomainError } from "#server/platform/errors";
import { ENTRY_MONEY_COLUMNS, sessionTotals, type Totals } from "#server/domains/payments/ledger/ledger";
import { expireStalePendingSessions } from "#server/domains/payments/checkout/stale-sessions";
import { dealEarnings } from "#server/domains/payments/records/deal-earnings";

/**
 * The owner's read side of sponsor payments (SPEC §2.5 "Sponsor payments",
 * "Payment info page", §7.2 "Sponsor sessions queried by poster_uid, newest
 * first"). Every query is bounded by the poster's uid: another person's
 * session is not found, never forbidden (only the owner ever sees a session).
 */

/** SPEC §2.4: `status` takes completed, pending or refunded; any other value shows all. */
export const STATUS_FILTERS = ["completed", "pending", "refunded"] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number] | "all";

/**
 * Sessions where money arrived, whatever happened to it since: what "all" shows
 * (docs/decisions/0030). A checkout that was opened but never paid is not a
 * sponsor yet, and anyone can open one with any text.
 */
export const PAID_STATUSES = ["completed", "refunded", "disputed"] as const satisfies readonly SponsorSessionStatus[];

/** SPEC §4 "not completed is pending": the Pending filter shows every checkout never paid, open, failed or expired. */
export const UNPAID_STATUSES = ["pending", "failed", "expired"] as const satisfies readonly SponsorSessionStatus[];

const STATUSES_OF_FILTER: Record<StatusFilter, readonly SponsorSessionStatus[]> = {
  all: PAID_STATUSES,
  completed: ["completed"],
  pending: UNPAID_STATUSES,
  refunded: ["refunded"],
};

export function statusFilterFrom(value: string | null | undefined): StatusFilter {
  return (STATUS_FILTERS as readonly string[]).includes(value ?? "") ? (value as StatusFilter) : "all";
}

export const SPONSOR_SESSIONS_PAGE_SIZE = 20;

export type SponsorSessionCard = {
  id: string;
  kind: SponsorSessionKind;
  status: SponsorSessionStatus;
  amount: number;
  currency: string;
  sponsorEmail: string | null;
  message: string;
  /** The name the supporter gave the creator (null: none), and whether they asked to stay off the public wall. */
  supporterName: string | null;
  private: boolean;
  created: Date;
  /** A refund the provider has not confirmed yet (the status stays completed until its webhook). */
  refundPending: boolean;
  /** The payment's chargeback, if the sponsor's bank disputed it (one per charge). */
  dispute: { status: DisputeStatus; reason: string; evidenceDueBy: Date | null } | null;
};

const cardColumns = {
  id: sponsorSessions.id,
  kind: sponsorSessions.kind,
  status: sponsorSessions.status,
  amount: sponsorSessions.amount,
  currency: sponsorSessions.currency,
  sponsorEmail: sponsorSessions.sponsorEmail,
  message: sponsorSessions.message,
  supporterName: sponsorSessions.supporterName,
  private: sponsorSessions.private,
  created: sponsorSessions.created,
  refundStatus: refundRequests.status,
  disputeStatus: disputes.status,
  disputeDueBy: disputes.evidenceDueBy,
  disputeReason: disputes.reason,
};

type CardRow = Omit<SponsorSessionCard, "refundPending" | "dispute"> & { refundStatus: string | null; disputeStatus: DisputeStatus | null; disputeDueBy: Date | null; disputeReason: string | null };

const toCard = ({ refundStatus, disputeStatus, disputeDueBy, disputeReason, ...row }: CardRow): SponsorSessionCard => ({
  ...row,
  dispute: disputeStatus ? { status: disputeStatus, reason: disputeReason ?? "", evidenceDueBy: disputeDueBy } : null,
  sponsorEmail: row.sponsorEmail?.trim() ? row.sponsorEmail : null,
  supporterName: row.supporterName?.trim() ? row.supporterName : null,
  refundPending: row.status === "completed" && (refundStatus === "requested" || refundStatus === "pending"),
});

function selectCards(db: Db, where: SQL | undefined) {
  return db
    .select(cardColumns)
    .from(sponsorSessions)
    .leftJoin(refundRequests, eq(refundRequests.sessionId, sponsorSessions.id))
    .leftJoin(disputes, eq(disputes.sessionId, sponsorSessions.id))
    .where(where)
    .orderBy(desc(sponsorSessions.created), desc(sponsorSessions.id));
}

/** A page of the owner's sessions, newest first; `page` counts from 0. */
export async function listSponsorSessions(
  db: Db,
  uid: string,
  options: { status?: StatusFilter; page?: number; pageSize?: number } = {},
): Promise<{ sessions: SponsorSessionCard[]; hasMore: boolean }> {
  const pageSize = options.pageSize ?? SPONSOR_SESSIONS_PAGE_SIZE;
  const page = Math.max(0, Math.floor(options.page ?? 0));
  const status = options.status ?? "all";
  // A checkout the provider has closed shows as expired, not pending, even if its event never came.
  await expireStalePendingSessions(db, { posterUid: uid });
  const where = and(eq(sponsorSessions.posterUid, uid), inArray(sponsorSessions.status, [...STATUSES_OF_FILTER[status]]));
  // One row more than shown says whether a next page exists, without a count.
  const rows = await selectCards(db, where).limit(pageSize + 1).offset(page * pageSize);
  return { sessions: rows.slice(0, pageSize).map(toCard), hasMore: rows.length > pageSize };
}

/** Where a keyset page of the owner's sessions goes on from: the last session shown, its `created` in microseconds (a Date keeps milliseconds). */
export type SessionKeyset = { createdMicros: string; id: string };

const createdMicros = sql<string>`(extract(epoch from ${sponsorSessions.created}) * 1000000)::bigint::text`;

/**
 * The same list as listSponsorSessions, paged by keyset on (created, id) instead of by page
 * number, for callers that hold a cursor between requests (the public API): a payment that
 * arrives between two pages shifts nothing, so no payment is shown twice or skipped.
 */
export async function listSponsorSessionsAfter(
  db: Db,
  uid: string,
  options: { status?: StatusFilter; after?: SessionKeyset | null; pageSize?: number } = {},
): Promise<{ sessions: SponsorSessionCard[]; next: SessionKeyset | null }> {
  const pageSize = options.pageSize ?? SPONSOR_SESSIONS_PAGE_SIZE;
  await expireStalePendingSessions(db, { posterUid: uid });
  const after = options.after
    ? sql`(${sponsorSessions.created}, ${sponsorSessions.id}) < (timestamptz 'epoch' + ${options.after.createdMicros}::bigint * interval '1 microsecond', ${options.after.id})`
    : undefined;
  const rows = await db
    .select({ ...cardColumns, createdMicros })
    .from(sponsorSessions)
    .leftJoin(refundRequests, eq(refundRequests.sessionId, sponsorSessions.id))
    .leftJoin(disputes, eq(disputes.sessionId, sponsorSessions.id))
    .where(and(eq(sponsorSessions.posterUid, uid), inArray(sponsorSessions.status, [...STATUSES_OF_FILTER[options.status ?? "all"]]), after))
    .orderBy(desc(sponsorSessions.created), desc(sponsorSessions.id))
    .limit(pageSize + 1);
  const shown = rows.slice(0, pageSize);
  const last = shown[shown.length - 1];
  return {
    sessions: shown.map(({ createdMicros: _micros, ...row }) => toCard(row)),
    next: rows.length > pageSize && last ? { createdMicros: last.createdMicros, id: last.id } : null,
  };
}

/** The dashboard's My Sponsors: the latest sessions where money arrived (whatever happened to it since). */
export async function recentSponsors(db: Db, uid: string, limit = 5): Promise<SponsorSessionCard[]> {
  const rows = await selectCards(db, and(eq(sponsorSessions.posterUid, uid), inArray(sponsorSessions.status, [...PAID_STATUSES]))).limit(limit);
  return rows.map(toCard);
}

export type LedgerActivity = {
  sessionId: string;
  kind: LedgerEntryKind;
  gross: number;
  providerFee: number;
  platformFee: number;
  net: number;
  currency: string;
  created: Date;
};

// Every query of these joins or filters by a session, so the session is never null here (a deal's rows have none).
const activityColumns = { sessionId: sql<string>`${ledgerEntries.sessionId}`, ...ENTRY_MONEY_COLUMNS, created: ledgerEntries.created };

/** One line of Recent Activity: a movement on one of the owner's sessions, or a deal released to them. */
export type RecentMovement = (LedgerActivity & { deal: null }) | (Omit<LedgerActivity, "sessionId"> & { sessionId: null; deal: { id: string; title: string; sponsorName: string } });

/**
 * The dashboard's Recent Activity: the latest movements of money on the owner's sessions (payment,
 * refund, dispute) and the deals released to them (one line each, as their earnings read it,
 * server/domains/payments/records/deal-earnings.ts), newest first. Each source is read newest first
 * and at most `limit` deep, then the two are merged: never more than twice `limit` rows.
 */
export async function recentActivity(db: Db, uid: string, limit = 8): Promise<RecentMovement[]> {
  const [tips, deals] = await Promise.all([
    db
      .select(activityColumns)
      .from(ledgerEntries)
      .innerJoin(sponsorSessions, and(eq(sponsorSessions.id, ledgerEntries.sessionId), eq(sponsorSessions.posterUid, uid)))
      .orderBy(desc(ledgerEntries.created), desc(ledgerEntries.id))
      .limit(limit),
    dealEarnings(db, uid, { pageSize: limit }),
  ]);
  const released: RecentMovement[] = deals.earnings.map((d) => ({
    sessionId: null,
    deal: { id: d.dealId, title: d.title, sponsorName: d.sponsorName },
    kind: "deal_release",
    gross: d.gross,
    providerFee: d.providerFee,
    platformFee: d.fee,
    net: d.net,
    currency: d.currency,
    created: d.released,
  }));
  return [...tips.map((t): RecentMovement => ({ ...t, deal: null })), ...released].sort((a, b) => b.created.getTime() - a.created.getTime()).slice(0, limit);
}

export type SponsorPaymentInfo = {
  session: SponsorSessionCard & { paymentIntentId: string | null; provider: string; updatedAt: Date };
  entries: LedgerActivity[];
  /** From the ledger, one per currency (one in practice); empty while no money has moved. */
  totals: Totals[];
};

/** SPEC §7.1 sponsorPaymentInfo: one session of the owner's, with its ledger entries and totals. */
export async function sponsorPaymentInfo(db: Db, uid: string, sessionId: string): Promise<{ kind: "SUCCESS"; info: SponsorPaymentInfo } | DomainError<"not-found">> {
  await expireStalePendingSessions(db, { posterUid: uid });
  return readSponsorPaymentInfo(db, uid, sessionId);
}

/** sponsorPaymentInfo without first expiring stale checkouts: a pure read, for a transaction already changing the payment. */
export async function readSponsorPaymentInfo(db: Db, uid: string, sessionId: string): Promise<{ kind: "SUCCESS"; info: SponsorPaymentInfo } | DomainError<"not-found">> {
  const [row] = await db
    .select({ ...cardColumns, paymentIntentId: sponsorSessions.paymentIntentId, provider: sponsorSessions.provider, updatedAt: sponsorSessions.updatedAt })
    .from(sponsorSessions)
    .leftJoin(refundRequests, eq(refundRequests.sessionId, sponsorSessions.id))
    .leftJoin(disputes, eq(disputes.sessionId, sponsorSessions.id))
    .where(and(eq(sponsorSessions.id, sessionId), eq(sponsorSessions.posterUid, uid)));
  if (!row) return domainError("not-found", "There is no such payment.");
  const { paymentIntentId, provider, updatedAt, ...card } = row;
  const entries = await db
    .select(activityColumns)
    .from(ledgerEntries)
    .where(eq(ledgerEntries.sessionId, sessionId))
    .orderBy(ledgerEntries.created, sql`${ledgerEntries.id}`);
  return {
    kind: "SUCCESS",
    info: { session: { ...toCard(card), paymentIntentId, provider, updatedAt }, entries, totals: await sessionTotals(db, sessionId) },
  };
}
