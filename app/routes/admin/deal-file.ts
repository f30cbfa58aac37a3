import { requireStaff } from "#server/domains/auth/staff-guard";
import { dealFileAnswer } from "#app/routes/deals/deal-file.server";
import type { Route } from "./+types/deal-file";

/**
 * GET /app/admin/deals/{dealId}/files/{fileId}[?size=thumb]: a deal's file for staff, who read the
 * thread's and the work's files to decide a dispute; served with the same safe headers as to the sides.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireStaff(request, context);
  return dealFileAnswer(context.db, { reader: "staff", dealId: params.dealId, fileId: params.fileId, url: request.url });
}
