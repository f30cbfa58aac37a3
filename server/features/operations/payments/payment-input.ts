import { z } from "zod";

/**
 * The payment an operation is about, by its sponsor session id (SPEC §7.1 names it
 * `sponsorSessionId`; a page's address and the API's path call it otherwise and answer any
 * problem with it as "no such payment"). A session that is not the caller's is not-found, never
 * forbidden: only its creator (and staff) ever learn that it exists.
 */
export const sponsorSessionIdSchema = z
  .string({ error: "sponsorSessionId must be a string." })
  .min(1, "sponsorSessionId must not be empty.")
  .max(100, "sponsorSessionId must be at most 100 characters.");

export const paymentInput = z.object({ sponsorSessionId: sponsorSessionIdSchema });
