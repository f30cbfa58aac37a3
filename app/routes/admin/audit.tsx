import { Form, Link, useSearchParams } from "react-router";
import { requireStaff } from "#server/domains/auth/staff-guard";
import { AUDIT_ACTIONS } from "#server/platform/audit/audit-log";
import { auditChanges, listAudit, type FieldChange } from "#server/domains/staff/audit-view";
import { pageMeta } from "#page-kit/meta";
import { SelectField, TextField, primaryButton, secondaryButton } from "#page-kit/forms";
import { utcTime } from "#app/components/admin/format";
import { DataTable } from "#app/components/admin/DataTable";
import { NextPageLink } from "#app/components/admin/AdminPageParts";
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

function AuditSubject({ type, id }: { type: string; id: string }) {
  const link = subjectLink(type, id);
  return (
    <span className="break-all">
      {type}: {link ? <Link to={link}>{id}</Link> : id}
    </span>
  );
}

function AuditChanges({ changes }: { changes: FieldChange[] }) {
  if (changes.length === 0) return "—";
  return (
    <ul>
      {changes.map((change) => (
        <li key={change.field} className="break-all font-mono">
          {change.field}: {change.before} → {change.after}
        </li>
      ))}
    </ul>
  );
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
      <div className="mt-2">
        <DataTable
          caption="Audit log rows, newest first"
          captionHidden
          empty="No actions match."
          rows={loaderData.rows}
          rowKey={(row) => row.id}
          columns={[
            { header: "When", cell: (row) => <span className="whitespace-nowrap">{utcTime(row.at)}</span> },
            { header: "Who", cell: (row) => <span className="break-all">{row.actorLabel}</span> },
            { header: "What", cell: (row) => <span className="font-mono">{row.action}</span> },
            { header: "Subject", cell: (row) => <AuditSubject type={row.subjectType} id={row.subjectId} /> },
            { header: "Reason", cell: (row) => row.reason ?? "—" },
            { header: "Before → after", cell: (row) => <AuditChanges changes={row.changes} /> },
          ]}
        />
      </div>
      <NextPageLink to={loaderData.next ? `?${nextParams.toString()}` : null}>Older actions</NextPageLink>
    </>
  );
}
