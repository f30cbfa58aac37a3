import { desc, eq } from "drizzle-orm";
import { data } from "react-router";
import { notifications, user } from "#server/db/schema";
import { sendNotification } from "#server/notifications/send";
import { readForm } from "#app/lib/form.server";
import { formText } from "#app/lib/identity.server";
import type { Route } from "./+types/notifications";
import { notificationDepsOf } from "#server/notifications/deps";
import { refuseWith } from "#app/lib/respond.server";

const MAX_COUNT = 30;

async function uidOf(context: Route.LoaderArgs["context"], email: string): Promise<string> {
  const [row] = await context.db.select({ id: user.id }).from(user).where(eq(user.email, email.toLowerCase()));
  if (!row) throw data("No such user", { status: 404 });
  return row.id;
}

/**
 * End-to-end helper (ENABLE_TEST_ROUTES only, behind the loopback + secret
 * guard). POST email, title, message, and optionally buttonText,
 * buttonDestination and count (N alerts titled "<title> 1…N", oldest first):
 * alerts for that user, written through sendNotification as producers do.
 * Answers with the new ids, newest first. GET ?email= lists the user's alerts
 * as stored (id, title, unread, readOn), so a spec can see that nothing changed.
 */
export async function action({ request, context }: Route.ActionArgs) {
  if (!context.config.ENABLE_TEST_ROUTES) throw data(null, { status: 404 });
  const read = await readForm(request);
  if (read.kind === "ERROR") refuseWith(read);
  const uid = await uidOf(context, formText(read.form, "email"));
  const count = Math.min(MAX_COUNT, Math.max(1, Math.floor(Number(formText(read.form, "count") || 1)) || 1));
  const title = formText(read.form, "title") || "Test notification";
  const buttonText = formText(read.form, "buttonText") || undefined;
  const buttonDestination = formText(read.form, "buttonDestination") || undefined;
  // One after another, each in its own statement, so "newest first" has a defined order.
  for (let i = 1; i <= count; i++) {
    await sendNotification(context.db, {
      uid,
      kind: "general",
      title: count === 1 ? title : `${title} ${i}`,
      message: formText(read.form, "message") || "Sent by the end-to-end suite.",
      buttonText,
      buttonDestination,
    }, notificationDepsOf(context));
  }
  const rows = await context.db
    .select({ id: notifications.id })
    .from(notifications)
    .where(eq(notifications.uid, uid))
    .orderBy(desc(notifications.created), desc(notifications.id))
    .limit(count);
  return Response.json({ ids: rows.map((row) => row.id) });
}

export async function loader({ request, context }: Route.LoaderArgs) {
  if (!context.config.ENABLE_TEST_ROUTES) throw data(null, { status: 404 });
  const uid = await uidOf(context, new URL(request.url).searchParams.get("email") ?? "");
  const rows = await context.db
    .select({ id: notifications.id, title: notifications.title, unread: notifications.unread, readOn: notifications.readOn })
    .from(notifications)
    .where(eq(notifications.uid, uid))
    .orderBy(desc(notifications.created), desc(notifications.id));
  return Response.json(rows);
}
