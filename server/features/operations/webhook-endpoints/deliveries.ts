import { z } from "zod";
import { listWebhookDeliveries as listDeliveries, resendWebhookDelivery as resendDelivery, sendTestWebhookEvent as sendTestEvent } from "#server/platform/outgoing-webhooks/delivery-log";
import { deliveryIdSchema, defineWebhookOperation, endpointInput } from "./webhook-operation";

/**
 * One of the caller's endpoints' delivery log, newest first, a page at a time, every delivery with
 * its attempts: the endpoint's page and `GET /api/v1/webhook-endpoints/{id}/deliveries`. `cursor`
 * is the log's own (the page's `before`); the API wraps it in its opaque cursor and refuses one
 * that is not its own before this runs.
 */
export const listWebhookDeliveries = defineWebhookOperation({
  name: "listWebhookDeliveries",
  who: "account-holder",
  input: endpointInput.extend({
    cursor: z.string({ error: "cursor must be a string." }).nullable(),
    pageSize: z.int({ error: "pageSize must be a whole number." }).min(1, "pageSize must be at least 1.").max(100, "pageSize must be at most 100.").optional(),
  }),
  refusals: ["not-found"],
  call: ({ caller, input, deps }) => listDeliveries(deps.db, { uid: caller.uid, endpointId: input.endpointId, cursor: input.cursor, pageSize: input.pageSize }),
});

/**
 * A `webhook.test` event to one of the caller's endpoints, whatever events it chose: the endpoint
 * page's button and `POST /api/v1/webhook-endpoints/{id}/test`. Sent now (the worker is kicked).
 */
export const sendTestWebhookEvent = defineWebhookOperation({
  name: "sendTestWebhookEvent",
  who: "account-holder",
  input: endpointInput,
  // aborted: ENDPOINT_DISABLED, the endpoint is turned off.
  refusals: ["not-found", "aborted"],
  call: ({ caller, input, deps }) => sendTestEvent(deps.db, { uid: caller.uid, endpointId: input.endpointId, kick: () => deps.webhooks.kick() }),
});

/**
 * A delivery's event sent again to its endpoint (or, while it is still on its way, that delivery
 * tried now): the delivery log's Resend button and `POST /api/v1/webhook-deliveries/{id}/resend`.
 * A delivery of anyone else's endpoint is not-found.
 */
export const resendWebhookDelivery = defineWebhookOperation({
  name: "resendWebhookDelivery",
  who: "account-holder",
  input: z.object({ deliveryId: deliveryIdSchema }),
  // aborted: ENDPOINT_DISABLED, the endpoint is turned off.
  refusals: ["not-found", "aborted"],
  call: ({ caller, input, deps }) => resendDelivery(deps.db, { uid: caller.uid, deliveryId: input.deliveryId, kick: () => deps.webhooks.kick() }),
});
