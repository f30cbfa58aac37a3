import { z } from "zod";
import { refusal, success, type Result } from "#server/platform/errors";
import { WEBHOOK_DELIVERY_STATUSES } from "#server/platform/db/schema";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  disableWebhookEndpoint,
  enableWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookEndpoints,
  rotateWebhookSecret,
  updateWebhookEndpoint,
  type WebhookEndpointView,
} from "#server/platform/outgoing-webhooks/endpoints";
import { listWebhookDeliveries, resendWebhookDelivery, sendTestWebhookEvent, type WebhookDeliveryView } from "#server/platform/outgoing-webhooks/delivery-log";
import { MAX_WEBHOOK_ENDPOINTS_PER_ACCOUNT, WEBHOOK_EVENT_TYPES } from "#isomorphic/webhook-events";
import { defineApiOperation, type AnyApiOperation, type ApiDeps } from "#server/features/api/operation";
import { decodeCursor, encodeCursor, pageOf, pageQuery } from "#server/features/api/paging";
import { WEBHOOK_DESCRIPTION_MAX, WEBHOOK_URL_MAX } from "#isomorphic/webhook-events";

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

/** The endpoint with the changes sent: address, description and events checked as the form checks them, then on or off. */
async function changeEndpoint(deps: ApiDeps, uid: string, endpointId: string, changes: z.output<typeof endpointChangesSchema>): Promise<Result<{ endpoint: WebhookEndpointView }>> {
  const found = await getWebhookEndpoint(deps.db, { uid, endpointId });
  if (found.kind === "ERROR") return found;
  let endpoint = found.endpoint;
  if (changes.url !== undefined || changes.description !== undefined || changes.events !== undefined) {
    const input = { url: changes.url ?? endpoint.url, description: changes.description ?? endpoint.description, events: changes.events ?? endpoint.events };
    const updated = await updateWebhookEndpoint(deps.db, { uid, endpointId, targets: deps.config.WEBHOOK_TARGETS }, input);
    if (updated.kind === "ERROR") return updated;
    endpoint = updated.endpoint;
  }
  if (changes.enabled !== undefined && changes.enabled !== endpoint.enabled) {
    const switched = await (changes.enabled ? enableWebhookEndpoint : disableWebhookEndpoint)(deps.db, { uid, endpointId });
    if (switched.kind === "ERROR") return switched;
    endpoint = switched.endpoint;
  }
  return success({ endpoint });
}

export const webhookEndpointOperations: AnyApiOperation[] = [
  defineApiOperation({
    id: "listWebhookEndpoints",
    method: "get",
    path: "/webhook-endpoints",
    tag: TAG,
    summary: "List your webhook endpoints",
    description: `Newest first; an account has at most ${MAX_WEBHOOK_ENDPOINTS_PER_ACCOUNT}, so there is one page.`,
    scope: "webhooks:read",
    success: { status: 200, description: "Your endpoints.", schema: z.object({ data: z.array(endpointSchema) }).meta({ id: "WebhookEndpointList" }) },
    async handle({ caller, deps }) {
      const endpoints = await listWebhookEndpoints(deps.db, caller.uid);
      return success({ body: { data: endpoints.map(toPublicEndpoint) } });
    },
  }),
  defineApiOperation({
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
    refusals: ["invalid-argument", "resource-exhausted"],
    async handle({ caller, body, deps }) {
      const made = await createWebhookEndpoint(
        deps.db,
        { uid: caller.uid, sessionSecret: deps.sessionSecret, targets: deps.config.WEBHOOK_TARGETS },
        { url: body.url, description: body.description ?? "", events: body.events },
      );
      if (made.kind === "ERROR") return made;
      return success({ body: { ...toPublicEndpoint(made.endpoint), secret: made.secret } });
    },
  }),
  defineApiOperation({
    id: "getWebhookEndpoint",
    method: "get",
    path: "/webhook-endpoints/{id}",
    tag: TAG,
    summary: "Read a webhook endpoint",
    scope: "webhooks:read",
    params: endpointPath,
    success: { status: 200, description: "The endpoint.", schema: endpointSchema },
    refusals: ["not-found"],
    async handle({ caller, params, deps }) {
      const found = await getWebhookEndpoint(deps.db, { uid: caller.uid, endpointId: params.id });
      return found.kind === "ERROR" ? found : success({ body: toPublicEndpoint(found.endpoint) });
    },
  }),
  defineApiOperation({
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
    refusals: ["invalid-argument", "not-found"],
    async handle({ caller, params, body, deps }) {
      const changed = await changeEndpoint(deps, caller.uid, params.id, body);
      return changed.kind === "ERROR" ? changed : success({ body: toPublicEndpoint(changed.endpoint) });
    },
  }),
  defineApiOperation({
    id: "deleteWebhookEndpoint",
    method: "delete",
    path: "/webhook-endpoints/{id}",
    tag: TAG,
    summary: "Delete a webhook endpoint",
    description: "With its delivery log; nothing more is sent to it.",
    scope: "webhooks:write",
    params: endpointPath,
    success: { status: 204, description: "Deleted." },
    refusals: ["not-found"],
    async handle({ caller, params, deps }) {
      const deleted = await deleteWebhookEndpoint(deps.db, { uid: caller.uid, endpointId: params.id });
      return deleted.kind === "ERROR" ? deleted : success({});
    },
  }),
  defineApiOperation({
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
    refusals: ["not-found"],
    async handle({ caller, params, deps }) {
      const rotated = await rotateWebhookSecret(deps.db, { uid: caller.uid, endpointId: params.id, sessionSecret: deps.sessionSecret });
      if (rotated.kind === "ERROR") return rotated;
      return success({ body: { ...toPublicEndpoint(rotated.endpoint), secret: rotated.secret } });
    },
  }),
  defineApiOperation({
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
    refusals: ["not-found", "aborted"],
    async handle({ caller, params, deps }) {
      const sent = await sendTestWebhookEvent(deps.db, { uid: caller.uid, endpointId: params.id, kick: () => deps.webhooks.kick() });
      return sent.kind === "ERROR" ? sent : success({ body: { deliveryId: sent.deliveryId, eventId: sent.eventId } });
    },
  }),
  defineApiOperation({
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
    refusals: ["not-found", "invalid-argument"],
    async handle({ caller, params, query, deps }) {
      const cursor = query.cursor === undefined ? null : decodeCursor(query.cursor, cursorShape);
      if (cursor === null && query.cursor !== undefined) return refusal("invalid-argument", "INVALID_CURSOR", INVALID_CURSOR);
      const page = await listWebhookDeliveries(deps.db, { uid: caller.uid, endpointId: params.id, cursor: cursor?.after ?? null, pageSize: query.limit });
      if (page.kind === "ERROR") return page;
      return success({ body: { data: page.deliveries.map(toPublicDelivery), nextCursor: page.nextCursor ? encodeCursor({ after: page.nextCursor }) : null } });
    },
  }),
  defineApiOperation({
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
    refusals: ["not-found", "aborted"],
    async handle({ caller, params, deps }) {
      const resent = await resendWebhookDelivery(deps.db, { uid: caller.uid, deliveryId: params.id, kick: () => deps.webhooks.kick() });
      if (resent.kind === "ERROR") return resent;
      return success({ body: { deliveryId: resent.deliveryId, outcome: resent.outcome === "QUEUED" ? ("queued" as const) : ("retrying_now" as const) } });
    },
  }),
];
