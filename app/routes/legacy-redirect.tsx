import { LEGACY_REDIRECTS } from "#app/signed-in-routes";
import { movedPermanently } from "#page-kit/respond.server";
import type { Route } from "./+types/legacy-redirect";

/** Old addresses still in emails and bookmarks (SPEC §2.2). */
export function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const to = LEGACY_REDIRECTS[url.pathname.replace(/\/+$/, "")] ?? "/app";
  throw movedPermanently(`${to}${url.search}`);
}
