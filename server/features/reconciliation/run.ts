import { and, desc, gte, inArray, isNotNull, lt, or } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { dealFundings, ledgerEntries, reconciliationRuns, sponsorSessions } from "#server/platform/db/schema";
import { refusal, success, type Refusal, type Success } from "#server/platform/errors";
import type { PaymentProvider, Period, ProviderBalanceTransaction } from "#server/providers/payments/port";
import { recordAudit, type Actor } from "#server/platform/audit/audit-log";
import { compareMovements, movementKey, providerMovements, type Difference, type LedgerRow, type MovementKey } from "./movements";

const DAY = 86_400_000;
/**
 * How far either side may lag the other: a webhook handled minutes (or, after an outage, hours)
 * after the provider moved the money writes its ledger row later. Both sides are read this much
 * wider than the period, and a movement belongs to the period by its provider time (its ledger
 * time only when the provider has none), so one near midnight is neither missing nor counted twice.
 */
export const SLACK_MS = DAY;
/** A staff member may ask for at most this long a period at once (the provider pages through all of it). */
export const LONGEST_PERIOD_MS = 31 * DAY;

export type ReconciliationRun = typeof reconciliationRuns.$inferSelect & { differences: Difference[] };

export type RunRefusal = Refusal<"invalid-argument", "BAD_PERIOD">;

/** Yesterday in UTC, the scheduled job's period: [00:00, 24:00) of the day before `now`. */
export function yesterdayUtc(now: Date): Period {
  const to = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  return { from: new Date(to.getTime() - DAY), to };
}

export function checkPeriod(period: Period): RunRefusal | null {
  if (!(period.from.getTime() < period.to.getTime())) return refusal("invalid-argument", "BAD_PERIOD", "The period must end after it starts.");
  if (period.to.getTime() - period.from.getTime() > LONGEST_PERIOD_MS) return refusal("invalid-argument", "BAD_PERIOD", "Reconcile at most 31 days at once.");
  return null;
}

async function readLedger(db: Db, window: Period, references: string[]): Promise<LedgerRow[]> {
  const inWindow = and(gte(ledgerEntries.created, window.from), lt(ledgerEntries.created, window.to));
  // Rows written long after (or before) their provider movement are still found by reference.
  const byReference = references.length > 0 ? inArray(ledgerEntries.providerReference, references) : undefined;
  return db
    .select({
      id: ledgerEntries.id,
      sessionId: ledgerEntries.sessionId,
      fundingId: ledgerEntries.fundingId,
      kind: ledgerEntries.kind,
      gross: ledgerEntries.gross,
      providerFee: ledgerEntries.providerFee,
      platformFee: ledgerEntries.platformFee,
      currency: ledgerEntries.currency,
      providerReference: ledgerEntries.providerReference,
      created: ledgerEntries.created,
    })
    .from(ledgerEntries)
    .where(byReference ? or(inWindow, byReference) : inWindow);
}

/** Our sponsor sessions of these payment intents: a provider movement of any other (Pro billing) is not the ledger's. */
async function sessionsOfIntents(db: Db, intents: string[]): Promise<Map<string, string>> {
  if (intents.length === 0) return new Map();
  const rows = await db
    .select({ id: sponsorSessions.id, paymentIntentId: sponsorSessions.paymentIntentId })
    .from(sponsorSessions)
    .where(and(isNotNull(sponsorSessions.paymentIntentId), inArray(sponsorSessions.paymentIntentId, intents)));
  return new Map(rows.map((r) => [r.paymentIntentId!, r.id]));
}

/**
 * Deals' held charges among the provider's transactions: the payment intents deal_fundings paid,
 * and the charges whose metadata names a funding of ours (one the ledger never heard of may have
 * no payment intent on its funding yet). Each intent's funding, so a difference names its deal's.
 */
async function heldCharges(db: Db, transactions: readonly ProviderBalanceTransaction[]): Promise<Map<string, string>> {
  const intents = [...new Set(transactions.flatMap((t) => (t.paymentIntentId ? [t.paymentIntentId] : [])))];
  const named = [...new Set(transactions.flatMap((t) => (t.type === "charge" && t.sessionId ? [t.sessionId] : [])))];
  if (intents.length === 0 && named.length === 0) return new Map();
  const conditions = [
    ...(intents.length > 0 ? [inArray(dealFundings.paymentIntentId, intents)] : []),
    ...(named.length > 0 ? [inArray(dealFundings.id, named)] : []),
  ];
  const fundings = await db.select({ id: dealFundings.id, paymentIntentId: dealFundings.paymentIntentId }).from(dealFundings).where(or(...conditions));
  const fundingIds = new Set(fundings.map((f) => f.id));
  const held = new Map<string, string>();
  for (const f of fundings) if (f.paymentIntentId) held.set(f.paymentIntentId, f.id);
  for (const t of transactions) if (t.type === "charge" && t.paymentIntentId && t.sessionId && fundingIds.has(t.sessionId)) held.set(t.paymentIntentId, t.sessionId);
  return held;
}

/**
 * Reconciles one period: every balance transaction the provider has against
 * the ledger, in both directions, movement by movement (ADR 0054). Stores the
 * run and writes its audit row in one transaction. Reading never changes the
 * ledger, so running a period again is harmless: it is a new run of the same
 * comparison.
 */
export async function reconcile(
  db: Db,
  provider: Pick<PaymentProvider, "name" | "listBalanceTransactions">,
  input: { period: Period; actor: Actor; /** SLACK_MS unless said (tests of back-to-back periods). */ slackMs?: number },
  now: () => Date = () => new Date(),
): Promise<Success<{ run: ReconciliationRun }> | RunRefusal> {
  const bad = checkPeriod(input.period);
  if (bad) return bad;
  const { period } = input;
  const startedAt = now();
  const slack = input.slackMs ?? SLACK_MS;
  const window = { from: new Date(period.from.getTime() - slack), to: new Date(period.to.getTime() + slack) };
  const inPeriod = (at: Date) => at >= period.from && at < period.to;

  const transactions = await provider.listBalanceTransactions(window);
  const held = await heldCharges(db, transactions);
  const { movements } = providerMovements(transactions, new Set(held.keys()));
  const references = [...new Set([...movements.values()].map((m) => m.reference))];
  const rows = await readLedger(db, window, references);
  const ledger = new Map<MovementKey, LedgerRow>(rows.map((row) => [movementKey(row.kind, row.providerReference), row]));

  const intents = [...new Set([...movements.values()].flatMap((m) => (m.paymentIntentId ? [m.paymentIntentId] : [])))];
  const sessions = await sessionsOfIntents(db, intents);
  const chargedSessions = new Map<string, string>();
  for (const m of movements.values()) if (m.kind === "payment" && m.sessionId && m.paymentIntentId) chargedSessions.set(m.paymentIntentId, m.sessionId);
  const sessionOf = (m: { paymentIntentId: string | null; sessionId: string | null }) =>
    m.sessionId ?? (m.paymentIntentId ? (sessions.get(m.paymentIntentId) ?? chargedSessions.get(m.paymentIntentId) ?? null) : null);

  const fundingOf = (m: { paymentIntentId: string | null; fundingId: string | null }) => m.fundingId ?? (m.paymentIntentId ? (held.get(m.paymentIntentId) ?? null) : null);
  const ours = (m: { kind: string; paymentIntentId: string | null; sessionId: string | null; fundingId: string | null }) => (m.kind.startsWith("deal_") ? fundingOf(m) !== null : sessionOf(m) !== null);
  const { differences, compared } = compareMovements({ provider: movements, ledger, ours, sessionOf, fundingOf, inPeriod });

  const run = await db.transaction(async (tx) => {
    const [stored] = await tx
      .insert(reconciliationRuns)
      .values({
        periodStart: period.from,
        periodEnd: period.to,
        startedAt,
        finishedAt: now(),
        triggeredBy: actorLabel(input.actor),
        provider: provider.name,
        providerTransactions: transactions.filter((t) => inPeriod(t.created)).length,
        ledgerEntries: rows.filter((r) => inPeriod(r.created)).length,
        movementsCompared: compared,
        differenceCount: differences.length,
        differences,
      })
      .returning();
    await recordAudit(tx, {
      actor: input.actor,
      action: "reconciliation.run",
      subject: { type: "reconciliation_run", id: stored!.id },
      after: { period: { from: period.from.toISOString(), to: period.to.toISOString() }, movementsCompared: compared, differences: differences.length },
    });
    return stored!;
  });
  return success({ run: { ...run, differences } });
}

function actorLabel(actor: Actor): string {
  switch (actor.kind) {
    case "staff":
      return actor.email;
    case "command-line":
      return "command line";
    case "scheduled-job":
      return `scheduled job ${actor.job}`;
  }
}

/** The latest runs, newest first, for the back office. */
export async function latestRuns(db: Db, limit = 10): Promise<ReconciliationRun[]> {
  const rows = await db.select().from(reconciliationRuns).orderBy(desc(reconciliationRuns.startedAt)).limit(limit);
  return rows.map((row) => ({ ...row, differences: row.differences as Difference[] }));
}
