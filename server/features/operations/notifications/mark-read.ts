import { z } from "zod";
import { markAllAsRead, markAsRead } from "#server/domains/notifications/actions";
import { defineOperation } from "#server/features/operations/operation";
import { notificationInput } from "./notification-input";

/**
 * Mark one of the caller's notifications read: the Notifications page's Read button
 * (intent=read) and `POST /api/v1/notifications/{id}/read`. Idempotent: read before, it keeps its
 * first time. Another person's notification, or none, is not-found and nothing changes.
 */
export const markNotificationRead = defineOperation({
  name: "markNotificationRead",
  who: "account-holder",
  input: notificationInput,
  refusals: ["not-found"],
  call: ({ caller, input, deps }) => markAsRead(deps.db, caller.uid, input.notificationId),
});

/**
 * Every unread notification of the caller's becomes read, at one instant: the page's "Mark all as
 * read" (intent=read-all) and `POST /api/v1/notifications/read-all`. Nothing to refuse.
 */
export const markAllNotificationsRead = defineOperation({
  name: "markAllNotificationsRead",
  who: "account-holder",
  input: z.object({}),
  refusals: [],
  call: ({ caller, deps }) => markAllAsRead(deps.db, caller.uid),
});
