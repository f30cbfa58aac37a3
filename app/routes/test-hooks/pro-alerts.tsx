import { and, desc, eq, like } from "drizzle-orm";
import { data } from "react-router";
import { notifications, user } from "#server/db/schema";
import type { Route } from "./+types/pro-alerts";

/**
 * End-to-end helper (ENABLE_TEST_ROUTES only): the Pro alerts a person got,
 * newest first (`?email=…`), as the alerts screen (not built yet) would list them.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  if (!context.config.ENABLE_TEST_ROUTES) throw data(null, { status: 404 });
  const email = (new URL(request.url).searchParams.get("email") ?? "").toLowerCase();
  const [person] = await context.db.select({ id: user.id }).from(user).where(eq(user.email, email));
  if (!person) throw data(null, { status: 404 });
  const alerts = await context.db
    .select({ kind: notifications.kind, title: notifications.title, message: notifications.message })
    .from(notifications)
    .where(and(eq(notifications.uid, person.id), like(notifications.kind, "pro-%")))
    .orderBy(desc(notifications.created));
  return Response.json(alerts);
}
