import type { AlertView } from "#server/notifications/list";
import { callToAction } from "#server/notifications/cta";
import type { AlertCardView } from "#app/components/notifications/types";

/** An alert as the page shows it: dates as ISO text, the call to action already rewritten and checked. */
export function alertCard(alert: AlertView): AlertCardView {
  return {
    id: alert.id,
    title: alert.title,
    message: alert.message,
    unread: alert.unread,
    created: alert.created.toISOString(),
    readOn: alert.readOn?.toISOString() ?? null,
    cta: callToAction(alert.buttonDestination, alert.buttonText),
  };
}
