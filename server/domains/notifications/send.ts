import { eq } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { notifications, user } from "#server/platform/db/schema";
import type { Mailer } from "#server/platform/email/mailer";
import { notificationEmail, type EmailSite } from "#server/platform/email/messages";
import { queueWebhookEvent } from "#server/platform/outgoing-webhooks/queue";
import { toPublicNotification } from "./public-notification";
import { NOTIFICATION_CATALOGUE, type NotificationKind } from "./kinds";
import { wantsMail } from "./preferences";
import { signUnsubscribeToken, unsubscribePath } from "./unsubscribe-token";

export type NotificationInput = {
  uid: string;
  kind: NotificationKind;
  title: string;
  message: string;
  buttonText?: string;
  buttonDestination?: string;
};

/** What sendNotification needs besides the transaction to mail a notification (notificationDepsOf builds it from the app context). */
export type NotificationDeps = {
  mailer: Mailer;
  site: EmailSite & { publicOrigin: string };
  /** unsubscribeSigningKey(sessionSecret). */
  unsubscribeKey: string;
  /**
   * The platform's fee in percent (PLATFORM_FEE_PERCENT): a deal's webhook event, queued with the
   * notification of the same step, carries the fee split of its price as the API's deal read does.
   */
  platformFeePercent: number;
};

/** A database or an open transaction: notifications are written by whoever made the change they report. */
type Writer = Db;

/** Where the mail's button goes: the notification list, which shows the notification with its own (rewritten) call to action. */
export const NOTIFICATIONS_PATH = "/app/notifications";
export const PREFERENCES_PATH = "/app/account#notifications";

/** A notification as the notification.created event carries it (JSON: dates as ISO strings). */
/**
 * THE way the product writes a notification (SPEC §3 notifications, ADR 0025): the row,
 * and, if the person wants this kind by mail and their address is verified,
 * the mail, both with the caller's executor, so that they are committed with
 * the change they report, or not at all: a payment that rolls back leaves no
 * "payment received" and no mail behind, and a retried event that is already
 * handled writes neither twice. The outbox sends the mail after the commit,
 * retrying on failure. True when the notification was written; false when a unique
 * key said it exists already (one welcome per person).
 */
export async function sendNotification(tx: Writer, input: NotificationInput, deps: NotificationDeps): Promise<boolean> {
  const written = await tx
    .insert(notifications)
    .values({
      uid: input.uid,
      kind: input.kind,
      title: input.title,
      message: input.message,
      buttonText: input.buttonText ?? null,
      buttonDestination: input.buttonDestination ?? null,
    })
    .onConflictDoNothing()
    .returning();
  const [row] = written;
  if (!row) return false;
  await queueWebhookEvent(tx, { uid: input.uid, type: "notification.created", orderingKey: `notification:${row.id}`, data: toPublicNotification(row, deps.site.publicOrigin) });
  if (!(await wantsMail(tx, input.uid, input.kind))) return true;
  const [person] = await tx.select({ email: user.email, verified: user.emailVerified }).from(user).where(eq(user.id, input.uid));
  // SPEC §4: notifications are for verified addresses; an unverified one may not even be theirs.
  if (!person?.verified) return true;
  const origin = deps.site.publicOrigin;
  const kind = NOTIFICATION_CATALOGUE[input.kind];
  const mail = await notificationEmail({
    to: person.email,
    site: deps.site,
    kind: input.kind,
    kindLabel: kind.label,
    title: input.title,
    message: input.message,
    buttonLabel: "Open your notifications",
    url: `${origin}${NOTIFICATIONS_PATH}`,
    unsubscribeUrl: `${origin}${unsubscribePath(signUnsubscribeToken(deps.unsubscribeKey, input.uid, input.kind))}`,
    preferencesUrl: `${origin}${PREFERENCES_PATH}`,
  });
  await deps.mailer.sendWithin(tx, mail);
  return true;
}
