import { eq } from "drizzle-orm";
import { data } from "react-router";
import { getSessionUser } from "#server/auth/session";
import { proMemberships } from "#server/db/schema";
import type { Route } from "./+types/pro";

/**
 * TEST SETUP ONLY (ENABLE_TEST_ROUTES, loopback + secret): makes the signed-in
 * user Pro (a Limitless membership, as if bought), or with `?clear=1` not Pro.
 * It exists so the directory's gates can be driven end to end without a
 * purchase; buying Pro for real is covered by the Pro spec.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  if (!context.config.ENABLE_TEST_ROUTES) throw data(null, { status: 404 });
  const user = await getSessionUser(request, context);
  if (!user) throw data("Sign in first", { status: 401 });
  if (new URL(request.url).searchParams.get("clear") === "1") {
    await context.db.delete(proMemberships).where(eq(proMemberships.uid, user.id));
    return Response.json({ pro: false });
  }
  await context.db
    .insert(proMemberships)
    .values({ uid: user.id, plan: "limitless", status: "active" })
    .onConflictDoUpdate({ target: proMemberships.uid, set: { plan: "limitless", status: "active", currentPeriodEnd: null, updatedAt: new Date() } });
  return Response.json({ pro: true });
}
