import { Form, useActionData, useNavigation } from "react-router";
import { redirectWithToast } from "#server/platform/http/toast-cookie";
import { latestRuns } from "#server/features/reconciliation/run";
import { reconciliationToday } from "#server/features/reconciliation/today";
import { DAILY_AT_UTC } from "#server/features/reconciliation/daily";
import { reconcileDays, type DaysErrors } from "#server/features/reconciliation/request";
import { requireStaff } from "#server/domains/auth/staff-guard";
import { formText } from "#app/lib/identity.server";
import { primaryButton } from "#page-kit/forms";
import { DataTable } from "#app/components/admin/DataTable";
import { pageMeta } from "#page-kit/meta";
import { answerRefusal, requireForm } from "#page-kit/respond.server";
import type { Route } from "./+types/reconciliation";

const day = (date: Date) => date.toISOString().slice(0, 10);
const utcMinute = (date: Date) => `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
const utcClock = (date: Date) => `${date.toISOString().slice(11, 16)} UTC`;

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context);
  const [runs, today] = await Promise.all([latestRuns(context.db), reconciliationToday(context.db)]);
  const yesterday = day(new Date(Date.now() - 86_400_000));
  return {
    defaults: { from: yesterday, to: yesterday },
    dailyAt: DAILY_AT_UTC,
    today: {
      day: today.day,
      run: today.run ? { finishedAt: utcClock(today.run.finishedAt), compared: today.run.compared, differences: today.run.differences } : null,
      nextRunAt: utcMinute(today.nextRunAt),
      overdue: today.nextRunAt.getTime() <= Date.now(),
    },
    runs: runs.map((run) => ({
      id: run.id,
      // Periods are whole UTC days: the last day shown is the one before the end.
      period: { from: day(run.periodStart), to: day(new Date(run.periodEnd.getTime() - 1)) },
      startedAt: run.startedAt.toISOString().replace("T", " ").slice(0, 19) + " UTC",
      triggeredBy: run.triggeredBy,
      provider: run.provider,
      compared: run.movementsCompared,
      providerTransactions: run.providerTransactions,
      ledgerEntries: run.ledgerEntries,
      differences: run.differences,
    })),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const staff = await requireStaff(request, context);
  const form = await requireForm(request);
  const values = { from: formText(form, "from"), to: formText(form, "to") };
  const result = await reconcileDays(context.db, context.payments, values, staff.actor);
  if (result.kind === "ERROR") return answerRefusal(result, { fieldErrors: result.fieldErrors, values });
  const count = result.run.differenceCount;
  return redirectWithToast(request, context.sessionSecret, new URL(request.url).pathname, {
    kind: count === 0 ? "success" : "error",
    message: `${comparedText(result.run.movementsCompared)}: ${differencesText(count)}${count === 0 ? "." : " to look into."}`,
  });
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Reconciliation", noindex: true });

const PROBLEMS: Record<string, string> = {
  "missing-in-ledger": "The provider has it; the ledger does not",
  "missing-at-provider": "The ledger has it; the provider does not",
  "amounts-differ": "Both have it; the figures differ",
};

const counted = new Intl.NumberFormat("en-US");
/** Always with the count compared: "0 differences" alone would read as a clean bill when nothing was compared. */
const comparedText = (compared: number) => `Compared ${counted.format(compared)} ${compared === 1 ? "movement" : "movements"}`;
const differencesText = (count: number) => `${counted.format(count)} ${count === 1 ? "difference" : "differences"}`;

const FIELDS: Record<string, string> = { gross: "Gross", providerFee: "Provider fee", platformFee: "Platform fee", currency: "Currency" };

export default function Reconciliation({ loaderData }: Route.ComponentProps) {
  const { runs, defaults, today, dailyAt } = loaderData;
  const answered = useActionData<typeof action>() as { fieldErrors?: DaysErrors; values?: { from: string; to: string } } | undefined;
  const busy = useNavigation().state === "submitting";
  const [latest, ...earlier] = runs;
  const errors = answered?.fieldErrors ?? {};
  return (
    <>
      <h1 className="text-3xl font-bold">Reconciliation</h1>
      <p className="mt-2 text-muted">
        Every movement on the provider's balance compared with the ledger, both ways: what the provider has and the ledger lacks, what the ledger has and the provider lacks, and what both have with different figures. It runs
        by itself each night for the day before (UTC); run any period here.
      </p>

      <section aria-labelledby="today-run" className="mt-6 rounded-xl border p-5">
        <h2 id="today-run" className="text-sm font-semibold uppercase tracking-wide text-muted">
          Today
        </h2>
        {today.run ? (
          <p className="mt-2 text-lg font-semibold" data-testid="today-status">
            Reconciled today at {today.run.finishedAt} — {today.day}: {comparedText(today.run.compared).toLowerCase()}, {differencesText(today.run.differences)}.
          </p>
        ) : (
          <p className="mt-2 text-lg font-semibold" data-testid="today-status">
            Today is not reconciled yet — {today.overdue ? `the run due at ${today.nextRunAt} has not finished` : `the next run is at ${today.nextRunAt}`}, for {today.day}.
          </p>
        )}
        <p className="mt-1 text-sm text-muted">Each day's own movements are reconciled by the next day's run at {dailyAt} UTC.</p>
      </section>

      <Form method="post" className="mt-6 flex flex-wrap items-end gap-4" noValidate>
        <label className="block text-sm font-semibold">
          First day (UTC)
          <input type="date" name="from" required defaultValue={answered?.values?.from ?? defaults.from} aria-invalid={errors.from ? true : undefined} aria-describedby={errors.from ? "from-error" : undefined} className="mt-1 block rounded-md border px-3 py-2 font-normal" />
          {errors.from && <span id="from-error" className="mt-1 block text-sm font-normal text-red-700">{errors.from}</span>}
        </label>
        <label className="block text-sm font-semibold">
          Last day (UTC)
          <input type="date" name="to" required defaultValue={answered?.values?.to ?? defaults.to} aria-invalid={errors.to ? true : undefined} aria-describedby={errors.to ? "to-error" : undefined} className="mt-1 block rounded-md border px-3 py-2 font-normal" />
          {errors.to && <span id="to-error" className="mt-1 block text-sm font-normal text-red-700">{errors.to}</span>}
        </label>
        <button type="submit" className={primaryButton} disabled={busy}>
          {busy ? "Reconciling…" : "Reconcile"}
        </button>
      </Form>

      {latest ? (
        <section aria-labelledby="latest-run" className="mt-8 rounded-xl border p-5">
          <h2 id="latest-run" className="text-sm font-semibold uppercase tracking-wide text-muted">
            Latest run: {latest.period.from === latest.period.to ? latest.period.from : `${latest.period.from} to ${latest.period.to}`}
          </h2>
          <p className={`mt-2 text-4xl font-bold ${latest.differences.length === 0 ? "text-green-900" : "text-red-700"}`} role="status">
            {comparedText(latest.compared)}: {differencesText(latest.differences.length)}
          </p>
          {latest.compared === 0 && <p className="mt-1 font-semibold">No money moved in this period: there was nothing to compare.</p>}
          <p className="mt-1 text-sm text-muted">
            {latest.compared} movements compared ({latest.providerTransactions} provider transactions, {latest.ledgerEntries} ledger rows) on {latest.provider}, started {latest.startedAt} by {latest.triggeredBy}.
          </p>
          {latest.differences.length > 0 && <DifferenceList differences={latest.differences} />}
        </section>
      ) : (
        <p className="mt-8 rounded-xl bg-secondary/40 px-4 py-6 text-center">No run yet. Choose a period and reconcile.</p>
      )}

      {earlier.length > 0 && (
        <section aria-labelledby="earlier-runs" className="mt-8">
          <h2 id="earlier-runs" className="text-xl font-semibold">
            Earlier runs
          </h2>
          <DataTable
            caption="Earlier runs, newest first"
            captionHidden
            empty="No earlier runs."
            rows={earlier}
            rowKey={(run) => run.id}
            columns={[
              { header: "Period", cell: (run) => (run.period.from === run.period.to ? run.period.from : `${run.period.from} to ${run.period.to}`) },
              { header: "Started", cell: (run) => run.startedAt },
              { header: "By", cell: (run) => run.triggeredBy },
              { header: "Compared", cell: (run) => run.compared, numeric: true },
              { header: "Differences", cell: (run) => <span className="font-semibold">{run.differences.length}</span>, numeric: true },
            ]}
          />
        </section>
      )}
    </>
  );
}

type DifferenceView = Route.ComponentProps["loaderData"]["runs"][number]["differences"][number];

function DifferenceList({ differences }: { differences: DifferenceView[] }) {
  return (
    <ol aria-label="Differences" className="mt-4 space-y-3">
      {differences.map((d) => (
        <li key={`${d.problem}:${d.kind}:${d.reference}`} className="rounded-lg border border-red-700/30 p-3 text-sm">
          <p className="font-semibold">
            {PROBLEMS[d.problem] ?? d.problem}: {d.kind.replace("_", " ")} {d.reference}
          </p>
          <p className="mt-1 text-muted">
            {/* A deal's movement names its funding; runs stored before deals had none. */}
            {d.fundingId ? `Deal funding ${d.fundingId}` : `Session ${d.sessionId ?? "unknown"}`} · {d.at.replace("T", " ").slice(0, 19)} UTC
            {d.ledgerEntryId && ` · ledger row ${d.ledgerEntryId}`}
            {d.transactionIds.length > 0 && ` · provider ${d.transactionIds.join(", ")}`}
          </p>
          <table className="mt-2 text-left">
            <thead>
              <tr>
                <th scope="col" className="pr-4">Figure</th>
                <th scope="col" className="pr-4">Provider (expected)</th>
                <th scope="col" className="pr-4">Ledger (found)</th>
              </tr>
            </thead>
            <tbody>
              {d.fields.map((f) => (
                <tr key={f.field}>
                  <th scope="row" className="pr-4 font-normal">{FIELDS[f.field] ?? f.field}</th>
                  <td className="pr-4">{String(f.provider)}</td>
                  <td className="pr-4">{String(f.ledger)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </li>
      ))}
    </ol>
  );
}
