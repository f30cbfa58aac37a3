import { z } from "zod";
import { refusal } from "#server/platform/errors";
import { WEBHOOK_DELIVERY_STATUSES } from "#server/platform/db/schema";
import type { WebhookEndpointView } from "#server/platform/outgoing-webhooks/endpoints";
import type { WebhookDeliveryView } from "#server/platform/outgoing-webhooks/delivery-log";
import { MAX_WEBHOOK_ENDPOINTS_PER_ACCOUNT, WEBHOOK_DESCRIPTION_MAX, WEBHOOK_EVENT_TYPES, WEBHOOK_URL_MAX } from "#isomorphic/webhook-events";
import type { AnyApiOperation } from "#server/features/api/operation";
import { apiOperationOf } from "#server/features/api/operation-door";
import { decodeCursor, encodeCursor, pageOf, pageQuery } from "#server/features/api/paging";
import { changeWebhookEndpoint } from "#server/features/operations/webhook-endpoints/change-endpoint";
import { listWebhookDeliveries, resendWebhookDelivery, sendTestWebhookEvent } from "#server/features/operations/webhook-endpoints/deliveries";
import { createWebhookEndpoint, deleteWebhookEndpoint, listWebhookEndpoints, readWebhookEndpoint, rotateWebhookSecret } from "#server/features/operations/webhook-endpoints/endpoints";

const TAG = "Webhook endpoints";

const eventType = z.enum(WEBHOOK_EVENT_TYPES.map((event) => event.type) as [string, ...string[]]);
const instant = z.iso.datetime();

const endpointSchema = z
  .object({
    id: z.string().meta({ example: "ep_V1StGXR8Z5jdHi6B" }),
    url: z.string().meta({ description: "Where deliveries are POSTed." }),
    description: z.string(),
    events: z.array(eventType).meta({ description: "The event types it gets, in the guide's order." }),
    enabled: z.boolean().meta({ description: "false: turned off by you, or by us after it kept failing (`disabledReason` says which); nothing is queued for it." }),
    disabledAt: instant.nullable(),
    disabledReason: z.string().nullable(),
    consecutiveFailures: z.int().min(0).meta({ description: "Deliveries that failed in a row; a success sets it back to 0." }),
    failingSince: instant.nullable().meta({ description: "When the current run of failures began." }),
    previousSecretExpiresAt: instant.nullable().meta({ description: "After a rotation: until when the previous secret still signs beside the new one." }),
    createdAt: instant,
    updatedAt: instant,
  })
  .meta({ id: "WebhookEndpoint", description: "An address of yours that receives signed deliveries of the events it chose. Its secret is never shown again." });

const withSecretSchema = endpointSchema
  .extend({ secret: z.string().meta({ description: "The signing secret (`whsec_…`). Shown this once: store it now.", example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" }) })
  .meta({ id: "WebhookEndpointWithSecret", description: "An endpoint with its new signing secret, shown only in this answer." });

const attemptSchema = z.object({
  id: z.string(),
  attemptedAt: instant,
  requestHeaders: z.record(z.string(), z.string()),
  requestBody: z.string(),
  responseStatus: z.int().nullable().meta({ description: "Null when no answer came (a timeout, a refused connection)." }),
  responseHeaders: z.record(z.string(), z.string()).nullable(),
  responseBody: z.string().nullable().meta({ description: "The start of the answer's body." }),
  error: z.string().nullable().meta({ description: "Why it failed, when it did." }),
  durationMs: z.int().min(0),
});

const deliverySchema = z
  .object({
    id: z.string(),
    eventId: z.string().meta({ description: "The event's id, sent as `webhook-id`." }),
    eventType: z.string().meta({ description: "One of the event types, or `webhook.test`." }),
    status: z.enum(WEBHOOK_DELIVERY_STATUSES).meta({ description: "pending: on its way or waiting to be retried. delivered: a 2xx came back. failed: retries ran out." }),
    attemptCount: z.int().min(0),
    nextAttemptAt: instant.nullable(),
    createdAt: instant,
    finishedAt: instant.nullable(),
    attempts: z.array(attemptSchema).meta({ description: "Every attempt, oldest first: what was sent and what came back." }),
  })
  .meta({ id: "WebhookDelivery", description: "One event sent to one endpoint." });

const writeFields = {
  url: z.string().max(WEBHOOK_URL_MAX).meta({ description: "An https:// address on the public internet (checked again at each delivery, after DNS)." }),
  description: z.string().max(WEBHOOK_DESCRIPTION_MAX).meta({ description: "What it is, for you." }),
  events: z.array(eventType).min(1).max(WEBHOOK_EVENT_TYPES.length).meta({ description: "The event types to send to it." }),
};

const newEndpointSchema = z
  .strictObject({ ...writeFields, description: writeFields.description.optional() })
  .meta({ id: "NewWebhookEndpoint", description: `At most ${MAX_WEBHOOK_ENDPOINTS_PER_ACCOUNT} endpoints per account.` });

const endpointChangesSchema = z
  .strictObject({ ...writeFields, enabled: z.boolean().meta({ description: "false turns it off; true turns it back on with its failures forgotten." }) })
  .partial()
  .meta({ id: "WebhookEndpointChanges", description: "A partial update: only the fields you send change." });

const endpointPath = z.object({ id: z.string().min(1).max(100).meta({ description: "The endpoint's id (`ep_…`)." }) });
const deliveryPath = z.object({ id: z.string().min(1).max(100).meta({ description: "The delivery's id (`wd_…`)." }) });
const cursorShape = z.object({ after: z.string().min(1).max(200) });
const INVALID_CURSOR = "This cursor is not one of ours. Start again from the first page.";

/** The delivery log's own cursor inside the API's, or null when the API's is not one of ours. */
const logCursorOf = (cursor: string) => decodeCursor(cursor, cursorShape)?.after ?? null;

const iso = (value: Date | null) => value?.toISOString() ?? null;

function toPublicEndpoint(endpoint: WebhookEndpointView) {
  return {
    ...endpoint,
    disabledAt: iso(endpoint.disabledAt),
    failingSince: iso(endpoint.failingSince),
    previousSecretExpiresAt: iso(endpoint.previousSecretExpiresAt),
    createdAt: endpoint.createdAt.toISOString(),
    updatedAt: endpoint.updatedAt.toISOString(),
  };
}

function toPublicDelivery(delivery: WebhookDeliveryView) {
  return {
    ...delivery,
    nextAttemptAt: iso(delivery.nextAttemptAt),
    createdAt: delivery.createdAt.toISOString(),
    finishedAt: iso(delivery.finishedAt),
    attempts: delivery.attempts.map((attempt) => ({ ...attempt, attemptedAt: attempt.attemptedAt.toISOString() })),
  };
}

export const webhookEndpointOperations: AnyApiOperation[] = [
  apiOperationOf(listWebhookEndpoints, {
    id: "listWebhookEndpoints",
    method: "get",
    path: "/webhook-endpoints",
    tag: TAG,
    summary: "List your webhook endpoints",
    description: `Newest first; an account has at most ${MAX_WEBHOOK_ENDPOINTS_PER_ACCOUNT}, so there is one page.`,
    scope: "webhooks:read",
    success: { status: 200, description: "Your endpoints.", schema: z.object({ data: z.array(endpointSchema) }).meta({ id: "WebhookEndpointList" }) },
    input: () => null,
    answer: ({ endpoints }) => ({ data: endpoints.map(toPublicEndpoint) }),
  }),
  apiOperationOf(createWebhookEndpoint, {
    id: "createWebhookEndpoint",
    method: "post",
    path: "/webhook-endpoints",
    tag: TAG,
    summary: "Add a webhook endpoint",
    description:
      "Checked by the same rules and messages as the form in My Account (`fields` names each). The answer carries the signing secret, once. " +
      "No Idempotency-Key: answers are kept to replay them, and a secret is kept only sealed. If the answer is lost, list your endpoints and rotate the new one's secret.",
    scope: "webhooks:write",
    body: newEndpointSchema,
    success: { status: 201, description: "The endpoint, with its signing secret.", schema: withSecretSchema },
    input: ({ body }) => ({ url: body.url, description: body.description ?? "", events: body.events }),
    answer: (made) => ({ ...toPublicEndpoint(made.endpoint), secret: made.secret }),
  }),
  apiOperationOf(readWebhookEndpoint, {
    id: "getWebhookEndpoint",
    method: "get",
    path: "/webhook-endpoints/{id}",
    tag: TAG,
    summary: "Read a webhook endpoint",
    scope: "webhooks:read",
    params: endpointPath,
    success: { status: 200, description: "The endpoint.", schema: endpointSchema },
    input: ({ params }) => ({ endpointId: params.id }),
    answer: ({ endpoint }) => toPublicEndpoint(endpoint),
  }),
  apiOperationOf(changeWebhookEndpoint, {
    id: "updateWebhookEndpoint",
    method: "patch",
    path: "/webhook-endpoints/{id}",
    tag: TAG,
    summary: "Change a webhook endpoint",
    description: "Its address, description and events, checked as the form checks them, and whether it is on. The secret stays.",
    scope: "webhooks:write",
    params: endpointPath,
    body: endpointChangesSchema,
    success: { status: 200, description: "The endpoint as it is now.", schema: endpointSchema },
    input: ({ params, body }) => ({ ...body, endpointId: params.id }),
    answer: ({ endpoint }) => toPublicEndpoint(endpoint),
  }),
  apiOperationOf(deleteWebhookEndpoint, {
    id: "deleteWebhookEndpoint",
    method: "delete",
    path: "/webhook-endpoints/{id}",
    tag: TAG,
    summary: "Delete a webhook endpoint",
    description: "With its delivery log; nothing more is sent to it.",
    scope: "webhooks:write",
    params: endpointPath,
    success: { status: 204, description: "Deleted." },
    input: ({ params }) => ({ endpointId: params.id }),
    answer: () => undefined,
  }),
  apiOperationOf(rotateWebhookSecret, {
    id: "rotateWebhookSecret",
    method: "post",
    path: "/webhook-endpoints/{id}/rotate-secret",
    tag: TAG,
    summary: "Rotate an endpoint's signing secret",
    description:
      "A new secret, shown once. The one it replaces keeps signing beside it for 24 hours, so your receiver can switch without failing a delivery. " +
      "If the answer is lost, rotate again.",
    scope: "webhooks:write",
    params: endpointPath,
    success: { status: 200, description: "The endpoint, with its new signing secret.", schema: withSecretSchema },
    input: ({ params }) => ({ endpointId: params.id }),
    answer: (rotated) => ({ ...toPublicEndpoint(rotated.endpoint), secret: rotated.secret }),
  }),
  apiOperationOf(sendTestWebhookEvent, {
    id: "sendTestWebhookEvent",
    method: "post",
    path: "/webhook-endpoints/{id}/test",
    tag: TAG,
    summary: "Send a test event",
    description: "A `webhook.test` event to this endpoint alone, whatever events it chose, to check your receiver and its signature code.",
    scope: "webhooks:write",
    params: endpointPath,
    success: {
      status: 200,
      description: "Queued; its delivery shows in the log.",
      schema: z.object({ deliveryId: z.string(), eventId: z.string() }).meta({ id: "WebhookTestSent" }),
    },
    input: ({ params }) => ({ endpointId: params.id }),
    answer: (sent) => ({ deliveryId: sent.deliveryId, eventId: sent.eventId }),
  }),
  apiOperationOf(listWebhookDeliveries, {
    id: "listWebhookDeliveries",
    method: "get",
    path: "/webhook-endpoints/{id}/deliveries",
    tag: TAG,
    summary: "List an endpoint's deliveries",
    description: "Its delivery log, newest first, each delivery with every attempt: the request sent and the answer that came back.",
    scope: "webhooks:read",
    params: endpointPath,
    query: pageQuery,
    success: { status: 200, description: "A page of deliveries.", schema: pageOf(deliverySchema, "WebhookDeliveryPage") },
    // The API's cursor wraps the log's own: one that is not ours is the API's to refuse, in its words.
    refuse: ({ query }) => (query.cursor !== undefined && logCursorOf(query.cursor) === null ? refusal("invalid-argument", "INVALID_CURSOR", INVALID_CURSOR) : null),
    input: ({ params, query }) => ({ endpointId: params.id, cursor: query.cursor === undefined ? null : logCursorOf(query.cursor), pageSize: query.limit }),
    answer: (page) => ({ data: page.deliveries.map(toPublicDelivery), nextCursor: page.nextCursor ? encodeCursor({ after: page.nextCursor }) : null }),
  }),
  apiOperationOf(resendWebhookDelivery, {
    id: "resendWebhookDelivery",
    method: "post",
    path: "/webhook-deliveries/{id}/resend",
    tag: TAG,
    summary: "Resend a delivery",
    description: "Its event again, with the same `webhook-id`. While the event is still on its way (waiting out a retry), that delivery is tried now instead.",
    scope: "webhooks:write",
    params: deliveryPath,
    success: {
      status: 200,
      description: "Queued.",
      schema: z
        .object({
          deliveryId: z.string().meta({ description: "The delivery that will carry it: a new one, or the pending one tried now." }),
          outcome: z.enum(["queued", "retrying_now"]),
        })
        .meta({ id: "WebhookResent" }),
    },
    input: ({ params }) => ({ deliveryId: params.id }),
    answer: (resent) => ({ deliveryId: resent.deliveryId, outcome: resent.outcome === "QUEUED" ? ("queued" as const) : ("retrying_now" as const) }),
  }),
];
