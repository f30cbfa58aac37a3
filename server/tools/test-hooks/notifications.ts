import { and, asc, desc, eq, like } from "drizzle-orm";
import express, { Router } from "express";
import { emailOutbox, notifications, user } from "#server/platform/db/schema";
import { deleteNotification, markAllAsRead } from "#server/domains/notifications/actions";
import { notificationDepsOf } from "#server/domains/notifications/deps";
import { isNotificationKind } from "#server/domains/notifications/kinds";
import { sendNotification } from "#server/domains/notifications/send";
import { countUnreadNotifications } from "#server/domains/notifications/unread";
import { signUnsubscribeToken, UNSUBSCRIBE_LINK_DAYS, unsubscribePath, unsubscribeSigningKey } from "#server/domains/notifications/unsubscribe-token";
import type {
  DropStreamsAnswer,
  ExpiredUnsubscribeAnswer,
  NotificationMailAnswer,
  NotificationsSent,
  NotifyAnswer,
  ProNotification,
  StoredNotification,
} from "./contract";
import { HOOK_PATHS } from "./contract";
import { boundedInt, hook, HookRefusal, queryOf, signedInUser, type TestHooksDeps } from "./http";

const MAX_ALERTS_PER_CALL = 30;
const MAX_NOTIFY = 20;

/**
 * Notifications are written only through sendNotification and changed only through the
 * reader's own actions (server/domains/notifications/actions.ts), as the product does;
 * everything else here reads.
 * - `notifications` POST: notifications for an email, oldest first; answers their ids newest first.
 *   GET: that person's notifications as stored, so a spec can see that nothing changed.
 * - `notify`: the signed-in person's notifications sent, all read, all deleted, or only counted
 *   (the live unread count's other writers); answers the unread count left.
 * - `notification-mail`: the signed-in person's notifications and how many of their mails still
 *   wait in the outbox (0: every mail reached SMTP, so a spec may say one was NOT sent);
 *   or an unsubscribe link of theirs, properly signed but expired a day ago.
 * - `pro-notifications`: a person's Pro notifications, newest first.
 * - `notification-streams/drop`: the server drops every live stream, as a restart would.
 */
export function notificationHooks(deps: TestHooksDeps): Router {
  const router = Router();
  const mailDeps = notificationDepsOf(deps);

  const uidOf = async (email: string): Promise<string> => {
    const [row] = await deps.db.select({ id: user.id }).from(user).where(eq(user.email, email.toLowerCase()));
    if (!row) throw new HookRefusal(404, "No such user");
    return row.id;
  };

  router.post(
    HOOK_PATHS.notifications,
    express.urlencoded({ extended: false }),
    hook(async (req): Promise<NotificationsSent> => {
      const form = (req.body ?? {}) as Record<string, unknown>;
      const text = (name: string) => (typeof form[name] === "string" ? (form[name] as string) : "");
      const uid = await uidOf(text("email"));
      const count = boundedInt(text("count") || null, 1, 1, MAX_ALERTS_PER_CALL);
      const title = text("title") || "Test notification";
      // One after another, each in its own statement, so "newest first" has a defined order.
      for (let i = 1; i <= count; i++) {
        await sendNotification(
          deps.db,
          {
            uid,
            kind: "general",
            title: count === 1 ? title : `${title} ${i}`,
            message: text("message") || "Sent by the end-to-end suite.",
            buttonText: text("buttonText") || undefined,
            buttonDestination: text("buttonDestination") || undefined,
          },
          mailDeps,
        );
      }
      const rows = await deps.db
        .select({ id: notifications.id })
        .from(notifications)
        .where(eq(notifications.uid, uid))
        .orderBy(desc(notifications.created), desc(notifications.id))
        .limit(count);
      return { ids: rows.map((row) => row.id) };
    }),
  );

  router.get(
    HOOK_PATHS.notifications,
    hook(async (req): Promise<StoredNotification[]> => {
      const uid = await uidOf(queryOf(req).get("email") ?? "");
      const rows = await deps.db
        .select({ id: notifications.id, title: notifications.title, unread: notifications.unread, readOn: notifications.readOn })
        .from(notifications)
        .where(eq(notifications.uid, uid))
        .orderBy(desc(notifications.created), desc(notifications.id));
      return rows.map((row) => ({ ...row, readOn: row.readOn?.toISOString() ?? null }));
    }),
  );

  router.get(
    HOOK_PATHS.notify,
    hook(async (req): Promise<NotifyAnswer> => {
      const me = await signedInUser(req, deps);
      const query = queryOf(req);
      const db = deps.db;
      switch (query.get("do")) {
        case "send": {
          const n = boundedInt(query.get("n"), 1, 1, MAX_NOTIFY);
          await db.transaction(async (tx) => {
            for (let i = 0; i < n; i++) await sendNotification(tx, { uid: me.id, kind: "general", title: "Test alert", message: `Alert ${i + 1} of ${n}` }, mailDeps);
          });
          break;
        }
        case "read":
          await markAllAsRead(db, me.id);
          break;
        case "delete": {
          const mine = await db.select({ id: notifications.id }).from(notifications).where(eq(notifications.uid, me.id));
          // One transaction, so other tabs hear one change, as from the one statement a person's "delete all" would be.
          await db.transaction(async (tx) => {
            for (const { id } of mine) await deleteNotification(tx, me.id, id);
          });
          break;
        }
        case "count":
          break;
        default:
          throw new HookRefusal(400, "do=send|read|delete|count");
      }
      return { unread: await countUnreadNotifications(db, me.id) };
    }),
  );

  router.get(
    HOOK_PATHS.notificationMail,
    hook(async (req): Promise<NotificationMailAnswer | ExpiredUnsubscribeAnswer> => {
      const me = await signedInUser(req, deps);
      const expiredKind = queryOf(req).get("expired-unsubscribe");
      if (expiredKind !== null) {
        if (!isNotificationKind(expiredKind)) throw new HookRefusal(400, "No such kind");
        const issued = Math.floor(Date.now() / 1000) - (UNSUBSCRIBE_LINK_DAYS + 1) * 24 * 60 * 60;
        const token = signUnsubscribeToken(unsubscribeSigningKey(deps.sessionSecret), me.id, expiredKind, issued);
        return { url: `${deps.config.PUBLIC_ORIGIN}${unsubscribePath(token)}` };
      }
      const stored = await deps.db
        .select({ kind: notifications.kind, title: notifications.title })
        .from(notifications)
        .where(eq(notifications.uid, me.id))
        .orderBy(asc(notifications.created));
      const waiting = await deps.db.select({ id: emailOutbox.id }).from(emailOutbox).where(eq(emailOutbox.to, me.email));
      return { notifications: stored, mailWaiting: waiting.length };
    }),
  );

  router.get(
    HOOK_PATHS.proNotifications,
    hook(async (req): Promise<ProNotification[]> => {
      const uid = await uidOf(queryOf(req).get("email") ?? "");
      return deps.db
        .select({ kind: notifications.kind, title: notifications.title, message: notifications.message })
        .from(notifications)
        .where(and(eq(notifications.uid, uid), like(notifications.kind, "pro-%")))
        .orderBy(desc(notifications.created));
    }),
  );

  router.get(
    HOOK_PATHS.dropNotificationStreams,
    hook(async (): Promise<DropStreamsAnswer> => {
      if (!deps.notificationStreams) throw new HookRefusal(409, "This server keeps no live streams");
      deps.notificationStreams.dropAll();
      return { dropped: true };
    }),
  );
  return router;
}
