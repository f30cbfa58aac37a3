import { requireVerifiedUser } from "#server/domains/auth/session";
import { isSignedInOnly } from "#app/signed-in-routes";
import { refuse } from "#page-kit/respond.server";
import type { Route } from "./+types/not-found";

export const handle = { hydrate: false };

/**
 * Any path no route claims: the root error boundary renders the 404 page.
 * A signed-in-only address (SPEC §2.2) first asks a guest to sign in, and
 * an unverified user to verify, as the built routes do.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  if (isSignedInOnly(new URL(request.url).pathname)) await requireVerifiedUser(request, context);
  refuse("not-found");
}

export default function NotFound() {
  return null;
}
