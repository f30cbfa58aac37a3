import type { Db } from "#server/platform/db/client";
import { fieldRefusal, type FieldRefusal, type Success } from "#server/platform/errors";
import type { PaymentProvider } from "#server/providers/payments/port";
import type { Actor } from "#server/platform/audit/audit-log";
import { checkPeriod, reconcile, type ReconciliationRun } from "./run";

const DAY = 86_400_000;

export type DaysErrors = { from?: string; to?: string };

function utcDay(value: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const date = new Date(`${value}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value ? null : date;
}

/**
 * A staff member's run from the back office: the days `from` to `to`
 * (inclusive, UTC, as the form's date fields send them). A day that is not a
 * date, an end before the start, or more than 31 days are the person's
 * mistakes, answered on the field.
 */
export async function reconcileDays(
  db: Db,
  provider: Pick<PaymentProvider, "name" | "listBalanceTransactions">,
  input: { from: string; to: string },
  actor: Actor,
): Promise<Success<{ run: ReconciliationRun }> | FieldRefusal<DaysErrors>> {
  const from = utcDay(input.from.trim());
  const last = utcDay(input.to.trim());
  const errors: DaysErrors = {};
  if (!from) errors.from = "Give the first day as a date.";
  if (!last) errors.to = "Give the last day as a date.";
  if (!from || !last) return fieldRefusal(errors);
  const period = { from, to: new Date(last.getTime() + DAY) };
  const bad = checkPeriod(period);
  if (bad) return fieldRefusal({ to: last < from ? "The last day must not be before the first." : bad.message });
  const result = await reconcile(db, provider, { period, actor });
  // checkPeriod passed, so reconcile does not refuse it.
  if (result.kind !== "SUCCESS") return fieldRefusal({ to: result.message });
  return result;
}
