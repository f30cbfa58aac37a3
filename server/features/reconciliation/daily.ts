import { and, eq } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { reconciliationRuns } from "#server/platform/db/schema";
import type { PaymentProvider } from "#server/providers/payments/port";
import { reconcile, yesterdayUtc, type ReconciliationRun } from "./run";

export const DAILY_JOB = "reconcile-ledger";
/** When the job runs each day (UTC): late enough that a webhook delayed by an outage has landed. */
export const DAILY_AT_UTC = "03:10";

/**
 * The scheduled job's run (ADR 0042, 0054): yesterday in UTC, once. A run
 * already stored by the job for that day is the answer (a process that died
 * after storing it, a second tick); one cut short before storing runs again,
 * which is harmless since reconciling only reads. Null when it had run already.
 */
export async function reconcileYesterday(db: Db, provider: Pick<PaymentProvider, "name" | "listBalanceTransactions">, now: Date): Promise<ReconciliationRun | null> {
  const period = yesterdayUtc(now);
  const actor = { kind: "scheduled-job" as const, job: DAILY_JOB };
  const [done] = await db
    .select({ id: reconciliationRuns.id })
    .from(reconciliationRuns)
    .where(and(eq(reconciliationRuns.periodStart, period.from), eq(reconciliationRuns.periodEnd, period.to), eq(reconciliationRuns.triggeredBy, `scheduled job ${DAILY_JOB}`)));
  if (done) return null;
  const result = await reconcile(db, provider, { period, actor }, () => new Date());
  // yesterdayUtc is always a valid period; a refusal here would be a bug.
  if (result.kind !== "SUCCESS") throw new Error(result.message);
  return result.run;
}
