import { Form, Link, useSearchParams } from "react-router";
import { requireStaff } from "#server/auth/staff-guard";
import { AUDIT_ACTIONS } from "#server/audit/audit-log";
import { auditChanges, listAudit } from "#server/staff/audit-view";
import { pageMeta } from "#page-kit/meta";
import { SelectField, TextField, primaryButton, secondaryButton } from "#page-kit/forms";
import { utcTime } from "#app/components/admin/format";
import type { Route } from "./+types/audit";

/** GET /app/admin/audit: every back-office action, newest first, filtered by action, actor and subject. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context);
  const params = new URL(request.url).searchParams;
  const filters = { action: params.get("action") ?? "", actor: params.get("actor") ?? "", subject: params.get("subject") ?? "" };
  const page = await listAudit(context.db, filters, params.get("after"));
  return {
    actions: [...AUDIT_ACTIONS],
    next: page.next,
    rows: page.rows.map((row) => ({ ...row, changes: auditChanges(row.before, row.after) })),
  };
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "Audit log", noindex: true });

/** Where a subject can be opened in the back office. */
function subjectLink(type: string, id: string): string | null {
  return type === "user" ? `/app/admin/accounts/${encodeURIComponent(id)}` : null;
}

export default function Audit({ loaderData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const filters = new URLSearchParams([...params].filter(([key, value]) => key !== "after" && value));
  const nextParams = new URLSearchParams(filters);
  if (loaderData.next) nextParams.set("after", loaderData.next);
  return (
    <>
      <h1 className="text-3xl font-bold">Audit log</h1>
      <p className="mt-2 text-muted">Every back-office action, newest first. Nobody can change or delete these rows.</p>
      <Form method="get" role="search" aria-label="Filter the audit log" className="mt-6 grid gap-3 sm:grid-cols-[1fr_1fr_1fr_auto] sm:items-end">
        <SelectField label="Action" name="action" defaultValue={params.get("action") ?? ""}>
          <option value="">Any action</option>
          {loaderData.actions.map((action) => (
            <option key={action} value={action}>
              {action}
            </option>
          ))}
        </SelectField>
        <TextField label="Actor" name="actor" defaultValue={params.get("actor") ?? ""} />
        <TextField label="Subject id" name="subject" defaultValue={params.get("subject") ?? ""} />
        <button type="submit" className={primaryButton}>
          Filter
        </button>
      </Form>
      <p className="mt-4">
        <a href={`/app/admin/audit/export.csv${filters.size ? `?${filters.toString()}` : ""}`} className={secondaryButton} download>
          Export CSV
        </a>
      </p>
      {loaderData.rows.length === 0 ? (
        <p className="mt-6">No actions match.</p>
      ) : (
        <div className="mt-6 overflow-x-auto">
          <table className="w-full min-w-[48rem] text-left text-sm">
            <caption className="sr-only">Audit log rows, newest first</caption>
            <thead>
              <tr className="border-b">
                <th scope="col" className="p-2">When</th>
                <th scope="col" className="p-2">Who</th>
                <th scope="col" className="p-2">What</th>
                <th scope="col" className="p-2">Subject</th>
                <th scope="col" className="p-2">Reason</th>
                <th scope="col" className="p-2">Before → after</th>
              </tr>
            </thead>
            <tbody>
              {loaderData.rows.map((row) => {
                const link = subjectLink(row.subjectType, row.subjectId);
                return (
                  <tr key={row.id} className="border-b align-top">
                    <td className="whitespace-nowrap p-2">{utcTime(row.at)}</td>
                    <td className="break-all p-2">{row.actorLabel}</td>
                    <td className="p-2 font-mono">{row.action}</td>
                    <td className="break-all p-2">
                      {row.subjectType}:{" "}
                      {link ? <Link to={link}>{row.subjectId}</Link> : row.subjectId}
                    </td>
                    <td className="break-words p-2">{row.reason ?? "—"}</td>
                    <td className="p-2">
                      {row.changes.length === 0 ? (
                        "—"
                      ) : (
                        <ul>
                          {row.changes.map((change) => (
                            <li key={change.field} className="break-all font-mono">
                              {change.field}: {change.before} → {change.after}
                            </li>
                          ))}
                        </ul>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {loaderData.next ? (
        <p className="mt-4">
          <Link to={`?${nextParams.toString()}`} className={secondaryButton}>
            Older actions
          </Link>
        </p>
      ) : null}
    </>
  );
}
