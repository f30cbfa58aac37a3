import { eq } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { disputes, type DisputeStatus } from "#server/platform/db/schema";
import type { PaymentEventOf } from "#server/providers/payments/events";
import { recordDispute, recordDisputeReversal, refreshSessionStatus, type EntrySummary } from "#server/domains/payments/ledger/ledger";
import type { LockedSession } from "#server/domains/payments/checkout/locked-sessions";
import { recordMoneyFact } from "#server/domains/payments/ledger/record-money-fact";
import type { FanOutDeps } from "#server/domains/payments/notices/notice-deps";

export type DisputeRow = typeof disputes.$inferSelect;
type DisputeEvent = PaymentEventOf<"dispute.changed">;

/** How far along a dispute is: the status never moves to a lower rank, and won/lost (2) are final. */
const RANK: Record<DisputeStatus, number> = { needs_response: 0, under_review: 1, won: 2, lost: 2 };
export const isClosed = (status: DisputeStatus) => RANK[status] === 2;

/** The status after `incoming` is reported to a dispute that is `current`: forward only, never out of won or lost. */
export function nextStatus(current: DisputeStatus, incoming: DisputeStatus): DisputeStatus {
  return RANK[incoming] > RANK[current] ? incoming : current;
}

const earlier = (a: Date, b: Date) => (a.getTime() <= b.getTime() ? a : b);

/** The row after one more event: a pure merge, so any order of the same events gives the same row. */
export function mergeDispute(row: DisputeRow, event: DisputeEvent): Omit<DisputeRow, "id" | "provider" | "sessionId" | "created" | "updatedAt"> {
  const status = nextStatus(row.status, event.status);
  // Amount, reason and deadline from the latest report (the provider's current truth); the fee once known stays.
  const newer = event.occurredAt.getTime() > row.lastEventAt.getTime();
  const closedNow = isClosed(event.status) && status === event.status;
  return {
    amount: newer ? event.amount : row.amount,
    currency: row.currency,
    reason: newer ? event.reason : row.reason,
    status,
    evidenceDueBy: (newer ? event.evidenceDueBy : null) ?? row.evidenceDueBy ?? event.evidenceDueBy,
    providerFee: Math.max(row.providerFee, event.fee ?? 0),
    openedAt: earlier(row.openedAt, event.occurredAt),
    closedAt: closedNow ? (row.closedAt ? earlier(row.closedAt, event.occurredAt) : event.occurredAt) : row.closedAt,
    lastEventAt: newer ? event.occurredAt : row.lastEventAt,
  };
}

export type DisputeChange = {
  dispute: DisputeRow;
  /** First heard of, and not yet closed: the creator is told it opened. */
  opened: boolean;
  /** Closed by this event (won or lost): the creator is told the outcome. */
  closed: boolean;
};

/**
 * Applies one report of a dispute, in the transaction that holds the
 * session's row lock (every event of one payment takes it first, so two
 * deliveries in two processes apply one after the other). Writes the ledger
 * per the contract in ADR 0053: the `dispute` entry once the provider has
 * withdrawn the money (the event carries its balance transaction, so its
 * fee), the `dispute_reversal` once it is won; lost adds nothing. Then the fact, when the
 * status moved: dispute.opened, .closed, or .changed in between (the fan-out says who hears).
 */
export async function applyDisputeEvent(tx: Db, session: LockedSession, payment: EntrySummary, event: DisputeEvent, deps: FanOutDeps): Promise<DisputeChange> {
  const [inserted] = await tx
    .insert(disputes)
    .values({
      id: event.disputeId,
      provider: event.provider,
      sessionId: session.id,
      amount: event.amount,
      currency: event.currency,
      reason: event.reason,
      status: event.status,
      evidenceDueBy: event.evidenceDueBy,
      providerFee: event.fee ?? 0,
      openedAt: event.occurredAt,
      closedAt: isClosed(event.status) ? event.occurredAt : null,
      lastEventAt: event.occurredAt,
    })
    .onConflictDoNothing({ target: disputes.id })
    .returning();
  let dispute: DisputeRow;
  let closed: boolean;
  let statusChanged = true;
  if (inserted) {
    dispute = inserted;
    closed = isClosed(inserted.status);
  } else {
    const [current] = await tx.select().from(disputes).where(eq(disputes.id, event.disputeId)).for("update");
    if (!current) throw new Error(`dispute ${event.disputeId} vanished`);
    const merged = mergeDispute(current, event);
    [dispute] = (await tx.update(disputes).set({ ...merged, updatedAt: new Date() }).where(eq(disputes.id, current.id)).returning()) as [DisputeRow];
    closed = !isClosed(current.status) && isClosed(dispute.status);
    statusChanged = current.status !== dispute.status;
  }
  await writeLedger(tx, session, payment, event, dispute);
  const opened = Boolean(inserted) && !isClosed(dispute.status);
  // A fact when a dispute opens and each time its status moves; a repeated report tells nobody.
  if (statusChanged) {
    const type = opened ? "dispute.opened" : closed ? "dispute.closed" : "dispute.changed";
    await recordMoneyFact(tx, { type, sessionId: session.id, disputeId: dispute.id, status: dispute.status }, deps);
  }
  return { dispute, opened, closed };
}

async function writeLedger(tx: Db, session: LockedSession, payment: EntrySummary, event: DisputeEvent, dispute: DisputeRow): Promise<void> {
  const money = { sessionId: session.id, disputeId: dispute.id, amount: dispute.amount, currency: dispute.currency, payment };
  // A closed dispute had its money withdrawn on the way, whatever the order we hear of it in.
  const withdrawn = event.fee !== null || isClosed(dispute.status);
  let changed = false;
  if (withdrawn) {
    const written = await recordDispute(tx, { ...money, providerFee: dispute.providerFee });
    changed ||= written.outcome === "RECORDED";
  }
  if (dispute.status === "won") {
    const written = await recordDisputeReversal(tx, money);
    changed ||= written.outcome === "RECORDED";
  }
  if (changed) await refreshSessionStatus(tx, session.id, session.status);
}

/** The disputes of one session, newest first (the payment card and its Info page show the open one). */
export async function disputesOfSession(db: Db, sessionId: string): Promise<DisputeRow[]> {
  return db.select().from(disputes).where(eq(disputes.sessionId, sessionId)).orderBy(disputes.openedAt);
}
