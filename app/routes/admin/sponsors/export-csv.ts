import { requireStaff } from "#server/domains/auth/staff-guard";
import { exportCompaniesCsv } from "#server/domains/sponsor-directory/company-csv";
import { rawAnswer } from "#page-kit/respond.server";
import type { Route } from "./+types/export-csv";

/** GET /app/admin/sponsors/export.csv: every company, retired ones too, in the import's own columns. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context);
  const { csv, filename } = await exportCompaniesCsv(context.db);
  return rawAnswer(csv, {
    "Content-Type": "text/csv; charset=utf-8",
    "Content-Disposition": `attachment; filename="${filename}"`,
    "Cache-Control": "private, no-store",
  });
}
