import { requireStaff } from "#server/domains/auth/staff-guard";
import { auditCsv } from "#server/domains/staff/audit-view";
import { rawAnswer } from "#page-kit/respond.server";
import type { Route } from "./+types/audit-export";

/** GET /app/admin/audit/export.csv: the audit log (with the page's filters) as CSV, streamed. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context);
  const params = new URL(request.url).searchParams;
  const { filename, body } = auditCsv(context.db, { action: params.get("action") ?? "", actor: params.get("actor") ?? "", subject: params.get("subject") ?? "" });
  return rawAnswer(body, { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="${filename}"` });
}
