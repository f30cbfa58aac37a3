import { Form, Link, useNavigation } from "react-router";
import { requireStaff } from "#server/domains/auth/staff-guard";
import { importCompanies } from "#server/domains/sponsor-directory/company-import";
import { readImportForm } from "#server/domains/sponsor-directory/import-form";
import type { ImportPlan } from "#server/domains/sponsor-directory/company-import";
import { redirectWithToast } from "#server/platform/http/toast-cookie";
import { answerRefusal } from "#page-kit/respond.server";
import { FormNotice, primaryButton, secondaryButton } from "#page-kit/forms";
import { pageMeta } from "#page-kit/meta";
import type { Route } from "./+types/import";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context);
  return {};
}

type Answer = { error: string } | { plan: ImportPlan; csv: string };

/** "Preview" shows what the file would change; "Apply" (from the preview) writes it, all or nothing. */
export async function action({ request, context }: Route.ActionArgs) {
  const staff = await requireStaff(request, context);
  const form = await readImportForm(request);
  if (form.kind === "ERROR") return answerRefusal(form, { error: form.message } satisfies Answer);
  const result = await importCompanies(context.db, staff.actor, form);
  if (result.kind === "ERROR") return answerRefusal(result, { error: result.message } satisfies Answer);
  if (result.step === "preview") return { plan: result.plan, csv: form.csv } satisfies Answer;
  const { added, changed, unchanged } = result;
  return redirectWithToast(request, context.sessionSecret, "/app/admin/sponsors", {
    kind: "success",
    message: `Imported: ${added} added, ${changed} changed, ${unchanged} unchanged.`,
  });
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Import companies · Back office", noindex: true });

export default function ImportCompanies({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const answer = actionData as Answer | undefined;
  const busy = navigation.state === "submitting";
  return (
    <>
      <p className="text-sm">
        <Link to="/app/admin/sponsors">← Sponsor directory</Link>
      </p>
      <h1 className="mt-3 text-3xl font-bold">Import companies</h1>
      <p className="mt-2 max-w-2xl text-muted">
        Upload a CSV file in the export's columns (export the list to start from one). A row with an id updates that company; a row without one adds a company.
        Companies the file leaves out are not touched. You see what would change before anything is written.
      </p>
      <Form method="post" encType="multipart/form-data" className="mt-6 grid max-w-2xl gap-4">
        <div>
          <label htmlFor="import-file" className="block font-medium">
            CSV file
          </label>
          <input id="import-file" name="file" type="file" accept=".csv,text/csv" required aria-describedby="import-file-hint" className="mt-1 block w-full text-base" />
          <p id="import-file-hint" className="mt-1 text-sm text-muted">
            UTF-8 CSV, up to 2 MB.
          </p>
        </div>
        <div>
          <button type="submit" name="intent" value="preview" className={secondaryButton} disabled={busy}>
            Preview import
          </button>
        </div>
      </Form>
      {answer && "error" in answer ? (
        <div className="mt-6 max-w-2xl">
          <FormNotice>{answer.error}</FormNotice>
        </div>
      ) : null}
      {answer && "plan" in answer ? <Preview plan={answer.plan} csv={answer.csv} busy={busy} /> : null}
    </>
  );
}

function Preview({ plan, csv, busy }: { plan: ImportPlan; csv: string; busy: boolean }) {
  const nothing = plan.added.length === 0 && plan.changed.length === 0;
  return (
    <section aria-labelledby="preview-heading" className="mt-10 max-w-4xl">
      <h2 id="preview-heading" className="text-xl font-bold">
        Preview
      </h2>
      <p className="mt-2" role="status">
        {plan.added.length} to add, {plan.changed.length} to change, {plan.unchanged.length} unchanged, {plan.errors.length} with errors.
      </p>
      {plan.errors.length ? (
        <>
          <h3 className="mt-6 text-lg font-semibold">Rows with errors</h3>
          <p className="text-sm text-muted">Nothing can be imported until these are fixed in the file.</p>
          <ul className="mt-2 grid gap-2">
            {plan.errors.map((row) => (
              <li key={row.line} className="rounded-lg border border-red-700/40 bg-red-50 p-3">
                <p className="font-medium">
                  Line {row.line}: {row.label}
                </p>
                <ul className="mt-1 list-disc pl-6 text-sm">
                  {row.messages.map((message) => (
                    <li key={message}>{message}</li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {plan.added.length ? (
        <>
          <h3 className="mt-6 text-lg font-semibold">To add</h3>
          <ul className="mt-2 list-disc pl-6">
            {plan.added.map((row) => (
              <li key={row.line}>
                {row.name} <span className="text-sm text-muted">(line {row.line}, id {row.id})</span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {plan.changed.length ? (
        <>
          <h3 className="mt-6 text-lg font-semibold">To change</h3>
          <ul className="mt-2 grid gap-3">
            {plan.changed.map((row) => (
              <li key={row.line} className="rounded-lg border border-ink/15 p-3">
                <p className="font-medium">
                  {row.name} <span className="text-sm font-normal text-muted">(line {row.line})</span>
                </p>
                <dl className="mt-1 grid gap-1 text-sm">
                  {row.diffs.map((diff) => (
                    <div key={diff.column}>
                      <dt className="font-medium">{diff.label}</dt>
                      <dd className="break-words">
                        <del className="text-red-800">{diff.before || "(empty)"}</del> → <ins className="text-green-800">{diff.after || "(empty)"}</ins>
                      </dd>
                    </div>
                  ))}
                </dl>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {plan.unchanged.length ? (
        <details className="mt-6">
          <summary className="cursor-pointer font-semibold">Unchanged ({plan.unchanged.length})</summary>
          <ul className="mt-2 list-disc pl-6 text-sm">
            {plan.unchanged.map((row) => (
              <li key={row.line}>{row.name}</li>
            ))}
          </ul>
        </details>
      ) : null}
      {plan.errors.length === 0 && !nothing ? (
        <Form method="post" encType="multipart/form-data" className="mt-8">
          <input type="hidden" name="csv" value={csv} />
          <input type="hidden" name="fingerprint" value={plan.fingerprint} />
          <button type="submit" name="intent" value="apply" className={primaryButton} disabled={busy}>
            Apply import
          </button>
        </Form>
      ) : nothing && plan.errors.length === 0 ? (
        <p className="mt-6">This file changes nothing.</p>
      ) : null}
    </section>
  );
}
