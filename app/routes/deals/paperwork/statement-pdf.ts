import { requireVerifiedUser } from "#server/domains/auth/session";
import { dealStatementFile } from "#server/domains/deals/paperwork-files";
import type { Route } from "./+types/statement-pdf";
import { pdfAnswer } from "./pdf-answer.server";

/** GET /app/deals/:dealId/statement.pdf: the creator's statement of the deal's money as a PDF, for the creator only. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireVerifiedUser(request, context);
  return pdfAnswer(await dealStatementFile(context.db, { uid: user.id, dealId: params.dealId }));
}
