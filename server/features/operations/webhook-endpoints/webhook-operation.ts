import { z } from "zod";
import type { Config } from "#server/platform/config";
import type { Db } from "#server/platform/db/client";
import { defineOperation, type Answer, type Operation, type Who_ } from "#server/features/operations/operation";

/**
 * What the webhook endpoint operations use: the database, the secret that seals signing secrets,
 * the delivery worker (`kick()` sends what was just queued now, not at the next poll) and which
 * addresses may receive deliveries. A page's context and `/api/v1`'s services both hold them;
 * a SPEC §7.1 callable does not, and there is no webhook callable.
 */
export type WebhookDeps = { db: Db; sessionSecret: string; webhooks: { kick(): void }; config: Pick<Config, "WEBHOOK_TARGETS"> };

/** defineOperation for an operation that uses WebhookDeps. */
export function defineWebhookOperation<Input extends z.ZodType, Who extends Who_, Output extends Answer>(operation: Operation<Input, Who, Output, WebhookDeps>) {
  return defineOperation(operation);
}

/**
 * An endpoint (`ep_…`) or a delivery (`wd_…`) by its id. Only the type is checked: the domain
 * answers any id that is not one of the caller's as not-found, which is all a stranger ever learns.
 * The API's path keeps its own bounds (1–100 characters), refused there as no such object.
 */
export const endpointIdSchema = z.string({ error: "endpointId must be a string." });
export const deliveryIdSchema = z.string({ error: "deliveryId must be a string." });

export const endpointInput = z.object({ endpointId: endpointIdSchema });

/**
 * An endpoint's settings as sent. Their content (an https:// address on the public internet, the
 * description's length, events from the list) is the domain's to check, field by field with the
 * form's messages (`fieldErrors`), so one submit shows every problem.
 */
export const endpointSettings = {
  url: z.string({ error: "url must be a string." }),
  description: z.string({ error: "description must be a string." }),
  events: z.array(z.string({ error: "Each of events must be a string." }), { error: "events must be a list of event types." }),
};
