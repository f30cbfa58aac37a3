import { asc, eq } from "drizzle-orm";
import { data } from "react-router";
import { getSessionUser } from "#server/auth/session";
import { emailOutbox, notifications } from "#server/db/schema";
import { isNotificationKind } from "#server/notifications/kinds";
import { signUnsubscribeToken, UNSUBSCRIBE_LINK_DAYS, unsubscribePath, unsubscribeSigningKey } from "#server/notifications/unsubscribe-token";
import type { Route } from "./+types/notification-mail";

/**
 * End-to-end helper (ENABLE_TEST_ROUTES only, behind the loopback + secret
 * guard): the signed-in user's alerts (kind, title), oldest first, and how
 * many mails to them still wait in the outbox. An alert's mail is committed
 * with the alert, so once `mailWaiting` is 0 every mail it had has reached
 * the SMTP server: a spec can then say a mail was NOT sent.
 * `?expired-unsubscribe=<kind>`: an unsubscribe link of theirs, properly
 * signed but expired a day ago (the server's secret never leaves it).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  if (!context.config.ENABLE_TEST_ROUTES) throw data(null, { status: 404 });
  const user = await getSessionUser(request, context);
  if (!user) throw data("Sign in first", { status: 401 });
  const expiredKind = new URL(request.url).searchParams.get("expired-unsubscribe");
  if (expiredKind !== null) {
    if (!isNotificationKind(expiredKind)) throw data("No such kind", { status: 400 });
    const issued = Math.floor(Date.now() / 1000) - (UNSUBSCRIBE_LINK_DAYS + 1) * 24 * 60 * 60;
    const token = signUnsubscribeToken(unsubscribeSigningKey(context.sessionSecret), user.id, expiredKind, issued);
    return Response.json({ url: `${context.config.PUBLIC_ORIGIN}${unsubscribePath(token)}` });
  }
  const alerts = await context.db
    .select({ kind: notifications.kind, title: notifications.title })
    .from(notifications)
    .where(eq(notifications.uid, user.id))
    .orderBy(asc(notifications.created));
  const waiting = await context.db.select({ id: emailOutbox.id }).from(emailOutbox).where(eq(emailOutbox.to, user.email));
  return Response.json({ alerts, mailWaiting: waiting.length });
}
