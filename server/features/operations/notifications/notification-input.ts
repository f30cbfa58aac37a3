import { z } from "zod";

/**
 * The notification an operation is about, by its id. Any string is taken: the domain answers an
 * id that is no uuid as not-found, the same answer as another person's notification, so a page's
 * form and the API's path hear one "no such notification" whatever they sent.
 */
export const notificationInput = z.object({
  notificationId: z.string({ error: "notificationId must be a string." }),
});
