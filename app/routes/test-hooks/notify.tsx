import { eq } from "drizzle-orm";
import { data } from "react-router";
import { getSessionUser } from "#server/auth/session";
import { notifications } from "#server/db/schema";
import { sendNotification } from "#server/notifications/send";
import { countUnreadNotifications } from "#server/notifications/unread";
import type { Route } from "./+types/notify";
import { notificationDepsOf } from "#server/notifications/deps";

/**
 * End-to-end helper (ENABLE_TEST_ROUTES only, behind the loopback + secret guard) for the
 * signed-in user's alerts, as other writers would change them (issue 17's live count):
 * - `?do=send&n=N`: N alerts through sendNotification (the path every producer takes);
 * - `?do=read`: every alert marked read; `?do=delete`: every alert deleted; `?do=count`: nothing.
 * Answers the unread count left behind.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  if (!context.config.ENABLE_TEST_ROUTES) throw data(null, { status: 404 });
  const user = await getSessionUser(request, context);
  if (!user) throw data("Sign in first", { status: 401 });
  const params = new URL(request.url).searchParams;
  const db = context.db;
  switch (params.get("do")) {
    case "send": {
      const n = Math.min(20, Math.max(1, Math.floor(Number(params.get("n") ?? 1)) || 1));
      await db.transaction(async (tx) => {
        for (let i = 0; i < n; i++) await sendNotification(tx, { uid: user.id, kind: "general", title: "Test alert", message: `Alert ${i + 1} of ${n}` }, notificationDepsOf(context));
      });
      break;
    }
    case "read":
      await db.update(notifications).set({ unread: false, readOn: new Date() }).where(eq(notifications.uid, user.id));
      break;
    case "delete":
      await db.delete(notifications).where(eq(notifications.uid, user.id));
      break;
    case "count":
      break;
    default:
      throw data("do=send|read|delete|count", { status: 400 });
  }
  return Response.json({ unread: await countUnreadNotifications(db, user.id) }, { headers: { "Cache-Control": "no-store" } });
}
