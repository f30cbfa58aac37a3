import type { NotificationView } from "#server/domains/notifications/list";
import { callToAction } from "#server/domains/notifications/cta";
import type { NotificationCardView } from "#app/components/notifications/types";

/** A notification as the page shows it: dates as ISO text, the call to action already rewritten and checked. */
export function notificationCard(notification: NotificationView): NotificationCardView {
  return {
    id: notification.id,
    title: notification.title,
    message: notification.message,
    unread: notification.unread,
    created: notification.created.toISOString(),
    readOn: notification.readOn?.toISOString() ?? null,
    cta: callToAction(notification.buttonDestination, notification.buttonText),
  };
}
