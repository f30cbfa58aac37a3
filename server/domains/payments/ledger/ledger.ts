import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { success, type Success } from "#server/platform/errors";
import { ledgerEntries, sponsorSessions, type LedgerEntryKind, type SponsorSessionStatus } from "#server/platform/db/schema";
import { dealEarningsByMonth } from "#server/domains/payments/records/deal-earnings";

/**
 * The ledger (DESIGN §5a, after Polar's transaction services): one append-only
 * entry per movement of money, one writer per kind, and everything else —
 * a session's status, the totals on every screen — derived from the entries.
 *
 * What the columns mean on a destination charge (docs/decisions/0021):
 * - gross: what the sponsor paid (negative when it goes back);
 * - platform_fee: the application fee the platform keeps;
 * - net: the creator's share, gross − platform_fee: what is transferred to
 *   (or, on a refund, reversed from) their connected account;
 * - provider_fee: the card processor's fee, charged to the PLATFORM on a
 *   destination charge, and not returned on a refund. Kept so the platform's
 *   own margin (platform_fee − provider_fee) is known, and so screens can say
 *   what the payment cost in all.
 */
/** A write either records the movement or finds it recorded already: both succeed. */
export type LedgerWrite = Success<{ outcome: "RECORDED"; entryId: string }> | Success<{ outcome: "ALREADY_RECORDED" }>;

/** One movement: of a tip's or sponsorship's session, or (the `deal_*` kinds, deal-ledger.ts) of a deal's funding. */
export type EntryInput = ({ sessionId: string; fundingId?: never } | { fundingId: string; sessionId?: never }) & {
  gross: number;
  providerFee: number;
  platformFee: number;
  currency: string;
  providerReference: string;
};

/** The one insert every writer of a kind goes through. */
export async function appendEntry(tx: Db, kind: LedgerEntryKind, input: EntryInput): Promise<LedgerWrite> {
  const [row] = await tx
    .insert(ledgerEntries)
    .values({ ...input, kind, net: input.gross - input.platformFee })
    // The same movement reported again (another event, a redelivery) is not a new one.
    .onConflictDoNothing({ target: [ledgerEntries.kind, ledgerEntries.providerReference] })
    .returning({ id: ledgerEntries.id });
  return row ? success({ outcome: "RECORDED", entryId: row.id }) : success({ outcome: "ALREADY_RECORDED" });
}

/** A settled payment, once per payment intent. */
export function recordPayment(
  tx: Db,
  input: { sessionId: string; paymentIntentId: string; gross: number; providerFee: number; platformFee: number; currency: string },
): Promise<LedgerWrite> {
  return appendEntry(tx, "payment", {
    sessionId: input.sessionId,
    gross: input.gross,
    providerFee: input.providerFee,
    platformFee: Math.min(input.platformFee, input.gross),
    currency: input.currency,
    providerReference: input.paymentIntentId,
  });
}

/** The share of the application fee that goes back with `amount` of `payment.gross` (the provider refunds it pro rata). */
function platformFeeShare(payment: { gross: number; platformFee: number }, amount: number): number {
  if (payment.gross <= 0) return 0;
  return Math.round((payment.platformFee * amount) / payment.gross);
}

/**
 * A refund of the payment, once per payment intent: the app only ever refunds
 * a payment whole (refunds.ts), so "the refund of this payment" is one
 * movement whichever event (charge.refunded, refund.updated) reports it first.
 * The provider keeps its fee, so provider_fee is 0 here.
 */
export function recordRefund(
  tx: Db,
  input: { sessionId: string; paymentIntentId: string; amount: number; currency: string; payment: { gross: number; platformFee: number } },
): Promise<LedgerWrite> {
  const amount = Math.min(input.amount, input.payment.gross);
  return appendEntry(tx, "refund", {
    sessionId: input.sessionId,
    gross: -amount,
    providerFee: 0,
    platformFee: -platformFeeShare(input.payment, amount),
    currency: input.currency,
    providerReference: input.paymentIntentId,
  });
}

/**
 * Money taken back by a card dispute, once per dispute, written when the
 * provider withdraws it: the creator's share goes back as with a refund, and
 * the provider charges the platform its dispute fee (Stripe: 1500 in USD),
 * which is kept in provider_fee (ADR 0053).
 */
export function recordDispute(
  tx: Db,
  input: { sessionId: string; disputeId: string; amount: number; providerFee: number; currency: string; payment: { gross: number; platformFee: number } },
): Promise<LedgerWrite> {
  const amount = Math.min(input.amount, input.payment.gross);
  return appendEntry(tx, "dispute", {
    sessionId: input.sessionId,
    gross: -amount,
    providerFee: input.providerFee,
    platformFee: -platformFeeShare(input.payment, amount),
    currency: input.currency,
    providerReference: input.disputeId,
  });
}

/** A won dispute: the money comes back, once per dispute; the provider keeps its dispute fee, so provider_fee is 0. */
export function recordDisputeReversal(
  tx: Db,
  input: { sessionId: string; disputeId: string; amount: number; currency: string; payment: { gross: number; platformFee: number } },
): Promise<LedgerWrite> {
  const amount = Math.min(input.amount, input.payment.gross);
  return appendEntry(tx, "dispute_reversal", {
    sessionId: input.sessionId,
    gross: amount,
    providerFee: 0,
    platformFee: platformFeeShare(input.payment, amount),
    currency: input.currency,
    providerReference: input.disputeId,
  });
}

export type EntrySummary = Pick<typeof ledgerEntries.$inferSelect, "kind" | "gross" | "providerFee" | "platformFee" | "net" | "currency">;

/**
 * A session's status from its entries, whatever order they were written in:
 * a dispute not reversed → disputed; else a refund → refunded; else a payment
 * → completed. With no money moved, the checkout's own lifecycle (pending,
 * failed, expired: `withoutMoney`) stands.
 */
export function deriveStatus(kinds: readonly LedgerEntryKind[], withoutMoney: SponsorSessionStatus): SponsorSessionStatus {
  const count = (kind: LedgerEntryKind) => kinds.filter((k) => k === kind).length;
  if (count("dispute") > count("dispute_reversal")) return "disputed";
  if (count("refund") > 0) return "refunded";
  if (count("payment") > 0) return "completed";
  return withoutMoney === "pending" || withoutMoney === "failed" || withoutMoney === "expired" ? withoutMoney : "pending";
}

/** The money columns of an entry, as every reader of the ledger selects them. */
export const ENTRY_MONEY_COLUMNS = {
  kind: ledgerEntries.kind,
  gross: ledgerEntries.gross,
  providerFee: ledgerEntries.providerFee,
  platformFee: ledgerEntries.platformFee,
  net: ledgerEntries.net,
  currency: ledgerEntries.currency,
};

export async function sessionEntries(db: Db, sessionId: string): Promise<EntrySummary[]> {
  return db
    .select(ENTRY_MONEY_COLUMNS)
    .from(ledgerEntries)
    .where(eq(ledgerEntries.sessionId, sessionId))
    .orderBy(asc(ledgerEntries.created));
}

/** Re-derives and stores the session's status; called by every handler in the transaction that wrote the entry. */
export async function refreshSessionStatus(tx: Db, sessionId: string, current: SponsorSessionStatus): Promise<SponsorSessionStatus> {
  const entries = await sessionEntries(tx, sessionId);
  const status = deriveStatus(
    entries.map((e) => e.kind),
    current,
  );
  if (status !== current) {
    await tx.update(sponsorSessions).set({ status, updatedAt: new Date() }).where(eq(sponsorSessions.id, sessionId));
  }
  return status;
}

export type Totals = {
  currency: string;
  gross: number;
  providerFee: number;
  platformFee: number;
  /** The creator's share (gross − platform fee): what their account received, less what went back. */
  net: number;
  /** The platform's margin: platform fee − provider fee (negative when the platform fee is below the processor's). */
  platformNet: number;
};

function totalsColumns() {
  return {
    currency: ledgerEntries.currency,
    gross: sql<number>`coalesce(sum(${ledgerEntries.gross}), 0)::int`,
    providerFee: sql<number>`coalesce(sum(${ledgerEntries.providerFee}), 0)::int`,
    platformFee: sql<number>`coalesce(sum(${ledgerEntries.platformFee}), 0)::int`,
    net: sql<number>`coalesce(sum(${ledgerEntries.net}), 0)::int`,
  };
}

const withPlatformNet = (rows: Omit<Totals, "platformNet">[]): Totals[] =>
  rows.map((r) => ({ ...r, platformNet: r.platformFee - r.providerFee }));

/** One session's totals per currency (one currency in practice). */
export async function sessionTotals(db: Db, sessionId: string): Promise<Totals[]> {
  const rows = await db.select(totalsColumns()).from(ledgerEntries).where(eq(ledgerEntries.sessionId, sessionId)).groupBy(ledgerEntries.currency).orderBy(ledgerEntries.currency);
  return withPlatformNet(rows);
}

/**
 * Everything a creator received, per currency: the "money received" of My Payments and the Sponsors
 * Dashboard. Tips and sponsorships from their ledger rows; deals once released, each as the sum of its
 * funding's rows (server/domains/payments/records/deal-earnings.ts), so a deal held or refunded adds nothing.
 */
export async function ownerTotals(db: Db, uid: string): Promise<Totals[]> {
  const [tipRows, dealMonths] = await Promise.all([
    db
      .select(totalsColumns())
      .from(ledgerEntries)
      .innerJoin(sponsorSessions, and(eq(sponsorSessions.id, ledgerEntries.sessionId), eq(sponsorSessions.posterUid, uid)))
      .groupBy(ledgerEntries.currency),
    dealEarningsByMonth(db, uid),
  ]);
  const byCurrency = new Map(tipRows.map((row) => [row.currency, { ...row }]));
  for (const deal of dealMonths) {
    const total = byCurrency.get(deal.currency) ?? { currency: deal.currency, gross: 0, providerFee: 0, platformFee: 0, net: 0 };
    total.gross += deal.gross;
    total.providerFee += deal.providerFee;
    total.platformFee += deal.fee;
    total.net += deal.net;
    byCurrency.set(deal.currency, total);
  }
  return withPlatformNet([...byCurrency.values()].sort((a, b) => a.currency.localeCompare(b.currency)));
}
