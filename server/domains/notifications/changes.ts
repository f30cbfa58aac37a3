import type { DatabaseHandle } from "#server/platform/db/client";
import type { Listening } from "#server/platform/db/listen";

/** The channel the `notifications_changed` trigger (migration 0013) notifies, with the uid as payload. */
export const NOTIFICATION_CHANGES_CHANNEL = "notification_changes";

/**
 * Tells `onChange` the uid of every committed notification change, from any process and any writer
 * (the trigger fires for the app, scripts and SQL consoles alike), and `onGap` when the
 * connection was lost and changes may have gone unheard.
 */
export function listenForNotificationChanges(
  database: Pick<DatabaseHandle, "listen">,
  handlers: { onChange(uid: string): void; onGap(): void; onError?(error: Error): void; backoffMs?: { first: number; max: number } },
): Promise<Listening> {
  return database.listen(NOTIFICATION_CHANGES_CHANNEL, {
    onNotify: handlers.onChange,
    onReconnect: handlers.onGap,
    onError: handlers.onError,
    backoffMs: handlers.backoffMs,
  });
}
