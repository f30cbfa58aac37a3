import { and, asc, eq, gt, inArray, lte, sql, type SQL } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import {
  sandboxMembershipCustomers,
  sandboxMembershipInvoices,
  sandboxMembershipSubscriptions,
  sandboxPayments,
} from "#server/providers/payments/sandbox/schema";
import { missing } from "./errors";
import { sandboxId } from "./ids";
import { invoicePaymentRow, membershipChanged, type MembershipCause, nextPeriodEnd } from "./memberships";
import { type DbOrTx, recordSandboxEvents } from "./outbox";

/**
 * The membership test clock: time passes for running subscriptions without waiting. Each one
 * whose period is over moves on by one period:
 * - cancelled at the period's end: it ends (`subscription.deleted`);
 * - past due (a renewal failed and stayed unpaid through the period): the retries are given up,
 *   its open invoice becomes uncollectible and it ends (`subscription.deleted`);
 * - its card fails renewals (4000 0000 0000 0341): the new period's invoice stays open and it is
 *   past due (`invoice.payment_failed`);
 * - otherwise it renews: the new period's invoice is paid by its own payment intent and charge,
 *   a destination charge as a tip's (`invoice.paid`).
 * One event per subscription and step: our handler reads the whole truth fresh anyway.
 *
 * Set-based, a batch at a time, each batch one transaction whose rows are locked FOR UPDATE SKIP
 * LOCKED: two clocks running at once take different rows, and a row taken is re-checked as still
 * due. An invoice is unique per subscription and period start, so no period is charged twice.
 */
export type MembershipClockOutcome = "renewed" | "failed" | "ended";

export type MembershipClockChange = {
  subscriptionId: string;
  membershipId: string;
  outcome: MembershipClockOutcome;
  /** The renewal's payment (renewed only). */
  paymentIntentId: string | null;
  /** The subscription's period after the step. */
  currentPeriodEnd: string;
};

export type MembershipClockReport = {
  renewed: number;
  failed: number;
  ended: number;
  /** What happened to each, in order (the first MAX_LISTED only: a benchmark moves 100,000). */
  changes: MembershipClockChange[];
};

export type AdvanceMembershipsInput = {
  /** One subscription, moved on by exactly one period whatever its period's end. */
  subscriptionId?: string;
  /**
   * The clock's new time: every running subscription whose period ends at or before it moves on,
   * period after period, until its period ends after it (or it ends). Without it (and without a
   * subscription), every running subscription moves on by one period, once.
   */
  until?: Date;
  /** Only the subscriptions paying to this connected account (the payouts dashboard's button). */
  accountId?: string;
  batchSize?: number;
};

const DEFAULT_BATCH = 500;
const MAX_BATCH = 5_000;
const MAX_LISTED = 1_000;

type Row = {
  id: string;
  membershipId: string;
  checkoutId: string;
  accountId: string;
  amount: number;
  currency: string;
  interval: "month" | "year";
  applicationFeeBasisPoints: number;
  status: "active" | "past_due" | "canceled";
  currentPeriodEnd: Date;
  cancelAtPeriodEnd: boolean;
  email: string;
  cardBrand: string | null;
  cardLast4: string | null;
  cardFailsRenewal: boolean;
  created: Date;
};

const RUNNING = inArray(sandboxMembershipSubscriptions.status, ["active", "past_due"]);

/** Locks up to `limit` running subscriptions matching `where`, skipping rows another clock holds. */
async function lockRows(tx: DbOrTx, where: SQL | undefined, limit: number, orderById: boolean): Promise<Row[]> {
  const s = sandboxMembershipSubscriptions;
  const c = sandboxMembershipCustomers;
  return tx
    .select({
      id: s.id,
      membershipId: s.membershipId,
      checkoutId: s.checkoutId,
      accountId: s.accountId,
      amount: s.amount,
      currency: s.currency,
      interval: s.interval,
      applicationFeeBasisPoints: s.applicationFeeBasisPoints,
      status: s.status,
      currentPeriodEnd: s.currentPeriodEnd,
      cancelAtPeriodEnd: s.cancelAtPeriodEnd,
      email: c.email,
      cardBrand: c.cardBrand,
      cardLast4: c.cardLast4,
      cardFailsRenewal: c.cardFailsRenewal,
      created: s.created,
    })
    .from(s)
    .innerJoin(c, eq(c.id, s.customerId))
    .where(and(RUNNING, where))
    .orderBy(orderById ? asc(s.id) : asc(s.currentPeriodEnd))
    .limit(limit)
    .for("update", { skipLocked: true });
}

/** Sets each subscription's period and status in one statement. */
async function movePeriods(tx: DbOrTx, moves: { id: string; start: Date; end: Date; status: "active" | "past_due" }[]): Promise<void> {
  if (moves.length === 0) return;
  const values = sql.join(
    moves.map((m) => sql`(${m.id}::text, ${m.start.toISOString()}::timestamptz, ${m.end.toISOString()}::timestamptz, ${m.status}::text)`),
    sql`, `,
  );
  await tx.execute(
    sql`update ${sandboxMembershipSubscriptions} set current_period_start = v.start_at, current_period_end = v.end_at, status = v.status
        from (values ${values}) as v(id, start_at, end_at, status) where ${sandboxMembershipSubscriptions.id} = v.id`,
  );
}

/** One step of every locked row, set-based; what happened to each. */
async function stepRows(tx: DbOrTx, rows: Row[], now: Date): Promise<MembershipClockChange[]> {
  const changes: MembershipClockChange[] = [];
  const events: ReturnType<typeof membershipChanged>[] = [];
  const note = (row: Row, outcome: MembershipClockOutcome, cause: MembershipCause, currentPeriodEnd: Date, paymentIntentId: string | null = null) => {
    changes.push({ subscriptionId: row.id, membershipId: row.membershipId, outcome, paymentIntentId, currentPeriodEnd: currentPeriodEnd.toISOString() });
    events.push(membershipChanged({ membershipId: row.membershipId, subscriptionId: row.id, checkoutId: row.checkoutId }, cause));
  };

  const cancelled = rows.filter((r) => r.cancelAtPeriodEnd);
  const givenUp = rows.filter((r) => !r.cancelAtPeriodEnd && r.status === "past_due");
  const failing = rows.filter((r) => !r.cancelAtPeriodEnd && r.status === "active" && r.cardFailsRenewal);
  const renewing = rows.filter((r) => !r.cancelAtPeriodEnd && r.status === "active" && !r.cardFailsRenewal);

  const ending = [...cancelled, ...givenUp];
  if (ending.length > 0) {
    const ids = ending.map((r) => r.id);
    await tx.update(sandboxMembershipSubscriptions).set({ status: "canceled", cancelAtPeriodEnd: false, endedAt: now }).where(inArray(sandboxMembershipSubscriptions.id, ids));
    const open = and(inArray(sandboxMembershipInvoices.subscriptionId, ids), eq(sandboxMembershipInvoices.status, "open"));
    // A failed renewal's invoice stays unpaid for good; a cancelled subscription's is simply void.
    if (givenUp.length > 0) {
      await tx
        .update(sandboxMembershipInvoices)
        .set({ status: "uncollectible" })
        .where(and(open, inArray(sandboxMembershipInvoices.subscriptionId, givenUp.map((r) => r.id))));
    }
    await tx.update(sandboxMembershipInvoices).set({ status: "void" }).where(open);
    for (const row of ending) note(row, "ended", "subscription.deleted", row.currentPeriodEnd);
  }

  // Its billing cycle anchor is the day it began.
  const next = (row: Row) => ({ start: row.currentPeriodEnd, end: nextPeriodEnd(row.currentPeriodEnd, row.interval, row.created) });
  const invoiceOf = (row: Row, paid: boolean) => {
    const period = next(row);
    return {
      id: sandboxId("in"),
      subscriptionId: row.id,
      amount: row.amount,
      currency: row.currency,
      status: paid ? ("paid" as const) : ("open" as const),
      periodStart: period.start,
      periodEnd: period.end,
      paymentIntentId: paid ? sandboxId("pi") : null,
      paidAt: paid ? now : null,
      reason: "subscription_cycle" as const,
      created: now,
    };
  };

  if (failing.length > 0) {
    // The unique period makes an invoice already there (a clock that got here first) a no-op.
    const made = await tx
      .insert(sandboxMembershipInvoices)
      .values(failing.map((r) => invoiceOf(r, false)))
      .onConflictDoNothing({ target: [sandboxMembershipInvoices.subscriptionId, sandboxMembershipInvoices.periodStart] })
      .returning({ subscriptionId: sandboxMembershipInvoices.subscriptionId });
    const madeFor = new Set(made.map((m) => m.subscriptionId));
    const moved = failing.filter((r) => madeFor.has(r.id));
    await movePeriods(tx, moved.map((r) => ({ id: r.id, ...next(r), status: "past_due" })));
    for (const row of moved) note(row, "failed", "invoice.payment_failed", next(row).end);
  }

  if (renewing.length > 0) {
    const made = await tx
      .insert(sandboxMembershipInvoices)
      .values(renewing.map((r) => invoiceOf(r, true)))
      .onConflictDoNothing({ target: [sandboxMembershipInvoices.subscriptionId, sandboxMembershipInvoices.periodStart] })
      .returning({ id: sandboxMembershipInvoices.id, subscriptionId: sandboxMembershipInvoices.subscriptionId, paymentIntentId: sandboxMembershipInvoices.paymentIntentId });
    const byRow = new Map(made.map((m) => [m.subscriptionId, m]));
    const moved = renewing.filter((r) => byRow.has(r.id));
    if (moved.length > 0) {
      await tx.insert(sandboxPayments).values(
        moved.map((r) => {
          const invoice = byRow.get(r.id)!;
          return invoicePaymentRow(
            {
              paymentIntentId: invoice.paymentIntentId!,
              invoiceId: invoice.id,
              accountId: r.accountId,
              amount: r.amount,
              currency: r.currency,
              applicationFeeBasisPoints: r.applicationFeeBasisPoints,
              email: r.email,
              cardBrand: r.cardBrand,
              cardLast4: r.cardLast4,
            },
            now,
          );
        }),
      );
    }
    await movePeriods(tx, moved.map((r) => ({ id: r.id, ...next(r), status: "active" })));
    for (const row of moved) note(row, "renewed", "invoice.paid", next(row).end, byRow.get(row.id)!.paymentIntentId);
  }

  await recordSandboxEvents(tx, events, now);
  return changes;
}

/**
 * Moves running membership subscriptions on (see above): the one named by exactly one period, or
 * every one whose period ends at or before `until`, or (neither given) every running one by one
 * period. Answers what happened. Safe to run twice at once: a period is charged once.
 */
export async function advanceSandboxMemberships(db: Db, input: AdvanceMembershipsInput, now: Date): Promise<MembershipClockReport> {
  const batch = Math.min(MAX_BATCH, Math.max(1, Math.floor(input.batchSize ?? DEFAULT_BATCH)));
  const report: MembershipClockReport = { renewed: 0, failed: 0, ended: 0, changes: [] };
  const take = (changes: MembershipClockChange[]) => {
    for (const change of changes) {
      report[change.outcome] += 1;
      if (report.changes.length < MAX_LISTED) report.changes.push(change);
    }
  };
  const ofAccount = input.accountId ? eq(sandboxMembershipSubscriptions.accountId, input.accountId) : undefined;

  if (input.subscriptionId) {
    const subscriptionId = input.subscriptionId;
    const [exists] = await db.select({ id: sandboxMembershipSubscriptions.id }).from(sandboxMembershipSubscriptions).where(eq(sandboxMembershipSubscriptions.id, subscriptionId));
    if (!exists) throw missing("subscription", subscriptionId);
    // Not waiting for a clock already moving it: that clock moves it, and this one leaves it be.
    take(await db.transaction(async (tx) => stepRows(tx, await lockRows(tx, and(eq(sandboxMembershipSubscriptions.id, subscriptionId), ofAccount), 1, true), now)));
    return report;
  }

  if (input.until) {
    const due = and(lte(sandboxMembershipSubscriptions.currentPeriodEnd, input.until), ofAccount);
    // Rows come back while any stays due: period after period, until every one is past `until` or ended.
    for (;;) {
      const changes = await db.transaction(async (tx) => stepRows(tx, await lockRows(tx, due, batch, false), now));
      if (changes.length === 0) break;
      take(changes);
    }
    return report;
  }

  // Every running one, once: by id, so a subscription moved in this pass is not taken again.
  let after = "";
  for (;;) {
    const { changes, last } = await db.transaction(async (tx) => {
      const rows = await lockRows(tx, and(gt(sandboxMembershipSubscriptions.id, after), ofAccount), batch, true);
      return { changes: await stepRows(tx, rows, now), last: rows.at(-1)?.id ?? null };
    });
    if (last === null) break;
    take(changes);
    after = last;
  }
  return report;
}
