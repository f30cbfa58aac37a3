import { z } from "zod";
import { success } from "#server/platform/errors";
import * as endpoints from "#server/platform/outgoing-webhooks/endpoints";
import { defineWebhookOperation, endpointInput, endpointSettings } from "./webhook-operation";

/**
 * The caller's webhook endpoints, newest first (never their secrets): My Account → Webhooks and
 * `GET /api/v1/webhook-endpoints`. It takes nothing: the endpoints are the caller's own.
 */
export const listWebhookEndpoints = defineWebhookOperation({
  name: "listWebhookEndpoints",
  who: "account-holder",
  input: z.strictObject({}).nullable(),
  refusals: [],
  call: async ({ caller, deps }) => success({ endpoints: await endpoints.listWebhookEndpoints(deps.db, caller.uid) }),
});

/**
 * Add an endpoint with a new signing secret, which is in the answer only (each door shows it once):
 * the Webhooks page's form and `POST /api/v1/webhook-endpoints`. At most
 * MAX_WEBHOOK_ENDPOINTS_PER_ACCOUNT per account.
 */
export const createWebhookEndpoint = defineWebhookOperation({
  name: "createWebhookEndpoint",
  who: "account-holder",
  input: z.object(endpointSettings),
  // invalid-argument: INVALID_FIELDS (url, description, events); resource-exhausted: TOO_MANY_ENDPOINTS.
  refusals: ["invalid-argument", "resource-exhausted"],
  call: ({ caller, input, deps }) => endpoints.createWebhookEndpoint(deps.db, { uid: caller.uid, sessionSecret: deps.sessionSecret, targets: deps.config.WEBHOOK_TARGETS }, input),
});

/**
 * One of the caller's endpoints (anyone else's is not-found): the endpoint's page and
 * `GET /api/v1/webhook-endpoints/{id}`.
 */
export const readWebhookEndpoint = defineWebhookOperation({
  name: "readWebhookEndpoint",
  who: "account-holder",
  input: endpointInput,
  refusals: ["not-found"],
  call: ({ caller, input, deps }) => endpoints.getWebhookEndpoint(deps.db, { uid: caller.uid, endpointId: input.endpointId }),
});

/**
 * Delete one of the caller's endpoints with its delivery log: the endpoint page's Delete button
 * and `DELETE /api/v1/webhook-endpoints/{id}`.
 */
export const deleteWebhookEndpoint = defineWebhookOperation({
  name: "deleteWebhookEndpoint",
  who: "account-holder",
  input: endpointInput,
  refusals: ["not-found"],
  call: ({ caller, input, deps }) => endpoints.deleteWebhookEndpoint(deps.db, { uid: caller.uid, endpointId: input.endpointId }),
});

/**
 * A new signing secret for one of the caller's endpoints, in the answer only; the one it replaces
 * keeps signing beside it for a day: the endpoint page's button and
 * `POST /api/v1/webhook-endpoints/{id}/rotate-secret`.
 */
export const rotateWebhookSecret = defineWebhookOperation({
  name: "rotateWebhookSecret",
  who: "account-holder",
  input: endpointInput,
  refusals: ["not-found"],
  call: ({ caller, input, deps }) => endpoints.rotateWebhookSecret(deps.db, { uid: caller.uid, endpointId: input.endpointId, sessionSecret: deps.sessionSecret }),
});
