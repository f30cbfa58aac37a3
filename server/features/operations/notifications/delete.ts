import { deleteNotification as deleteNotificationOf } from "#server/domains/notifications/actions";
import { defineOperation } from "#server/features/operations/operation";
import { notificationInput } from "./notification-input";

/**
 * Delete one of the caller's notifications: the Notifications page's Delete button
 * (intent=delete) and `DELETE /api/v1/notifications/{id}`. Another person's notification, or
 * none, is not-found and nothing is deleted.
 */
export const deleteNotification = defineOperation({
  name: "deleteNotification",
  who: "account-holder",
  input: notificationInput,
  refusals: ["not-found"],
  call: ({ caller, input, deps }) => deleteNotificationOf(deps.db, caller.uid, input.notificationId),
});
