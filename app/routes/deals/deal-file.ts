import { requireVerifiedUser } from "#server/domains/auth/session";
import { dealFileHeaders, readDealFile } from "#server/domains/deals/files";
import { rawAnswer, refuseWith } from "#page-kit/respond.server";
import type { Route } from "./+types/deal-file";

/**
 * GET /app/deals/{dealId}/files/{fileId}[?size=thumb]: one file of a deal, to the deal's two sides
 * only; anyone else gets the product's not-found, as for a deal that is not theirs.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireVerifiedUser(request, context);
  const variant = new URL(request.url).searchParams.get("size") === "thumb" ? "thumb" : "full";
  const read = await readDealFile(context.db, { uid: user.id, dealId: params.dealId, fileId: params.fileId, variant });
  if (read.kind === "ERROR") refuseWith(read);
  return rawAnswer(new Uint8Array(read.file.bytes), dealFileHeaders(read.file));
}
