import { data } from "react-router";
import { getSessionUser } from "#server/auth/session";
import { profiles } from "#server/db/schema";
import type { Route } from "./+types/payments";

/**
 * End-to-end helper (ENABLE_TEST_ROUTES only, behind the loopback + secret
 * guard): turns payments on or off for the signed-in user, as finishing the
 * payments setup will once payments exist (issue 15). Bio pages offer
 * sponsorship options only to profiles with payments enabled.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  if (!context.config.ENABLE_TEST_ROUTES) throw data(null, { status: 404 });
  const user = await getSessionUser(request, context);
  if (!user) throw data("Sign in first", { status: 401 });
  const paymentsEnabled = new URL(request.url).searchParams.get("enabled") !== "false";
  await context.db
    .insert(profiles)
    .values({ uid: user.id, paymentsEnabled })
    .onConflictDoUpdate({ target: profiles.uid, set: { paymentsEnabled } });
  return Response.json({ uid: user.id, paymentsEnabled });
}
