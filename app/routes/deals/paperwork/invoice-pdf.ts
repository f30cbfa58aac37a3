import { requireVerifiedUser } from "#server/domains/auth/session";
import { dealInvoiceFile } from "#server/domains/deals/paperwork-files";
import type { Route } from "./+types/invoice-pdf";
import { pdfAnswer } from "./pdf-answer.server";

/** GET /app/deals/:dealId/invoice.pdf: the sponsor's invoice as a PDF, for either side of the deal. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireVerifiedUser(request, context);
  return pdfAnswer(await dealInvoiceFile(context.db, { uid: user.id, dealId: params.dealId, appName: context.config.APP_NAME }));
}
