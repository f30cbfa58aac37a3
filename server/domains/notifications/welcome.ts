import type { Db } from "#server/platform/db/client";
import { sendNotification, type NotificationDeps } from "./send";

/**
 * The welcome notification, written when the email address is verified (and for a
 * Google account that arrives verified). Exactly once per person: the partial
 * unique index notifications_one_welcome_idx turns a replayed link, a double
 * click or two processes at once into "already there" (sendNotification's
 * insert does nothing on conflict, and then queues no mail either).
 */
export async function welcomeOnce(db: Db, uid: string, deps: NotificationDeps): Promise<boolean> {
  return db.transaction((tx) =>
    sendNotification(
      tx,
      {
        uid,
        kind: "welcome",
        title: `Welcome to ${deps.site.appName}!`,
        message: "Your email address is verified. Find sponsors, post opportunities, and set up a bio page to collect tips.",
        buttonText: "Get started",
        buttonDestination: "/app",
      },
      deps,
    ),
  );
}
