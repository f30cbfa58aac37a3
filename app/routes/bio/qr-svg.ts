import { requireVerifiedUser } from "#server/domains/auth/session";
import type { Route } from "./+types/qr-svg";
import { ownQrDownload } from "./qr-download.server";

/** The page's QR code as an SVG, sharp at any size (owner only). */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireVerifiedUser(request, context);
  return ownQrDownload(context, user.id, params.pageId, "svg");
}
