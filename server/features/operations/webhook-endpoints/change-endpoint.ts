import { z } from "zod";
import { success } from "#server/platform/errors";
import * as endpoints from "#server/platform/outgoing-webhooks/endpoints";
import { defineWebhookOperation, endpointInput, endpointSettings, type WebhookDeps } from "./webhook-operation";

/**
 * Change one of the caller's endpoints: only the fields sent change. Its address, description and
 * events are checked as when it was added; `enabled` switches it only when it differs from what it
 * is (turning on forgets its failures). The secret stays. The endpoint page's Settings form (which
 * sends the three settings) and `PATCH /api/v1/webhook-endpoints/{id}`.
 *
 * The page's Turn on / Turn off buttons are not this operation's doors: a button always applies
 * (turning on again clears the failures, turning off again says "Turned off by you."), where
 * `enabled` here changes nothing when it is already so. They stay the page's own domain calls.
 */
export const changeWebhookEndpoint = defineWebhookOperation({
  name: "changeWebhookEndpoint",
  who: "account-holder",
  input: endpointInput.extend({
    url: endpointSettings.url.optional(),
    description: endpointSettings.description.optional(),
    events: endpointSettings.events.optional(),
    enabled: z.boolean({ error: "enabled must be true or false." }).optional(),
  }),
  // invalid-argument: INVALID_FIELDS (url, description, events); not-found: no such endpoint of the caller's.
  refusals: ["invalid-argument", "not-found"],
  call: ({ caller, input, deps }) => changeEndpoint(deps, caller.uid, input),
});

type Changes = { endpointId: string; url?: string; description?: string; events?: string[]; enabled?: boolean };

/** Reads the endpoint first, so that one not the caller's is not-found whatever was sent (an empty change too). */
async function changeEndpoint(deps: WebhookDeps, uid: string, changes: Changes) {
  const { endpointId } = changes;
  const found = await endpoints.getWebhookEndpoint(deps.db, { uid, endpointId });
  if (found.kind === "ERROR") return found;
  let endpoint = found.endpoint;
  if (changes.url !== undefined || changes.description !== undefined || changes.events !== undefined) {
    const settings = { url: changes.url ?? endpoint.url, description: changes.description ?? endpoint.description, events: changes.events ?? endpoint.events };
    const updated = await endpoints.updateWebhookEndpoint(deps.db, { uid, endpointId, targets: deps.config.WEBHOOK_TARGETS }, settings);
    if (updated.kind === "ERROR") return updated;
    endpoint = updated.endpoint;
  }
  if (changes.enabled !== undefined && changes.enabled !== endpoint.enabled) {
    const switched = await (changes.enabled ? endpoints.enableWebhookEndpoint : endpoints.disableWebhookEndpoint)(deps.db, { uid, endpointId });
    if (switched.kind === "ERROR") return switched;
    endpoint = switched.endpoint;
  }
  return success({ endpoint });
}
