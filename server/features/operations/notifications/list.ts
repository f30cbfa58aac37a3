import { z } from "zod";
import { listNotifications as listNotificationsOf, NOTIFICATIONS_PAGE_SIZE } from "#server/domains/notifications/list";
import { defineOperation } from "#server/features/operations/operation";

/**
 * A page of the caller's notifications, newest first: the Notifications page's loader
 * (app/routes/notifications/notifications.tsx) and `GET /api/v1/notifications`. The cursor is the
 * domain's own (server/domains/notifications/list.ts); the API wraps it in its paging cursor, and
 * unwrapping that is the API door's.
 */
export const listNotifications = defineOperation({
  name: "listNotifications",
  who: "account-holder",
  input: z.object({
    cursor: z.string({ error: "cursor must be a string." }).nullable().default(null),
    pageSize: z.int({ error: "pageSize must be a whole number." }).min(1, "pageSize must be at least 1.").max(100, "pageSize must be at most 100.").default(NOTIFICATIONS_PAGE_SIZE),
    unreadOnly: z.boolean({ error: "unreadOnly must be true or false." }).default(false),
  }),
  // invalid-argument: the cursor is not one of a page of notifications.
  refusals: ["invalid-argument"],
  call: ({ caller, input, deps }) => listNotificationsOf(deps.db, caller.uid, input),
});
