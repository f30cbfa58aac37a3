import { requireVerifiedUser } from "#server/domains/auth/session";
import { receivedPaymentsCsv } from "#server/domains/payments/exports/payments-csv";
import { rawAnswer } from "#page-kit/respond.server";
import type { Route } from "./+types/export-csv";

/**
 * GET /app/account/payments/export.csv: the signed-in creator's received
 * payments, one row per movement of money in the ledger (server/domains/payments/exports/payments-csv.ts).
 * Only their own: the query is by the signed-in person, never by a parameter.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireVerifiedUser(request, context);
  const { csv, filename } = await receivedPaymentsCsv(context.db, user.id);
  return rawAnswer(csv, {
    "Content-Type": "text/csv; charset=utf-8",
    "Content-Disposition": `attachment; filename="${filename}"`,
    "Cache-Control": "private, no-store",
  });
}
