import type { NotificationView } from "./list";
import { z } from "zod";
import { callToAction } from "./cta";
import { NOTIFICATION_KINDS, type NotificationKind } from "./kinds";

/**
 * A notification as programs outside the app see it: the public API's answers and the
 * notification.created webhook event's `data` alike. Plain JSON: times as ISO 8601 text, the
 * call to action as the notifications page shows it (rewritten and checked, cta.ts) but as an
 * absolute URL, since the reader is not on the site.
 */
export const publicNotificationSchema = z
  .object({
    id: z.uuid().meta({ description: "The notification's id." }),
    kind: z.enum(NOTIFICATION_KINDS).meta({ description: "What it is about (payment-received, refund-done, dispute-opened …)." }),
    title: z.string(),
    message: z.string(),
    unread: z.boolean(),
    createdAt: z.iso.datetime(),
    readAt: z.iso.datetime().nullable().meta({ description: "When it was first marked read; null while unread." }),
    action: z
      .object({ text: z.string(), url: z.url() })
      .nullable()
      .meta({ description: "The notification's button, if it has one: its words and where it goes." }),
  })
  .meta({ id: "Notification", description: "A notification to you." });

export type PublicNotification = z.infer<typeof publicNotificationSchema>;

/** What a notification is made from: a listed notification (list.ts) or a notifications row. */
export type NotificationFacts = NotificationView;

const isKind = (kind: string): kind is NotificationKind => (NOTIFICATION_KINDS as readonly string[]).includes(kind);

/** `origin` is the app's public origin (config PUBLIC_ORIGIN): a same-site button path becomes a URL on it. */
export function toPublicNotification(notification: NotificationFacts, origin: string): PublicNotification {
  const cta = callToAction(notification.buttonDestination, notification.buttonText);
  return {
    id: notification.id,
    kind: isKind(notification.kind) ? notification.kind : "general",
    title: notification.title,
    message: notification.message,
    unread: notification.unread,
    createdAt: notification.created.toISOString(),
    readAt: notification.readOn?.toISOString() ?? null,
    action: cta ? { text: cta.text, url: new URL(cta.href, origin).href } : null,
  };
}
