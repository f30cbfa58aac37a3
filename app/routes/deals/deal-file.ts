import { requireVerifiedUser } from "#server/domains/auth/session";
import type { Route } from "./+types/deal-file";
import { dealFileAnswer } from "./deal-file.server";

/**
 * GET /app/deals/{dealId}/files/{fileId}[?size=thumb]: one file of a deal, to the deal's two sides
 * only; anyone else gets the product's not-found, as for a deal that is not theirs.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireVerifiedUser(request, context);
  return dealFileAnswer(context.db, { reader: { uid: user.id }, dealId: params.dealId, fileId: params.fileId, url: request.url });
}
