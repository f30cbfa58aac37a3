import { WEBHOOK_EVENT_TYPES } from "#isomorphic/webhook-events";
import { fieldRows, type Components, type FieldRow, type Schema } from "./reference";
import { servedApiDocument } from "./served-document";

/**
 * What the webhooks guide at /developers/webhooks shows of each event's body, read from the
 * OpenAPI document's `webhooks` (not from the schemas), so the guide says exactly what the
 * document says. Events that send the same object are one group: its fields are listed once.
 */
export type WebhookEventExample = { type: string; label: string; description: string; example: string };
export type WebhookDataGroup = { schemaName: string; description: string | null; events: WebhookEventExample[]; fields: FieldRow[] };

type DocWebhook = { post: { requestBody: { content: Record<string, { schema: { properties: { data: Schema } }; example: unknown }> } } };

export function webhookReferenceOf(document: { webhooks?: Record<string, unknown>; components?: { schemas?: unknown } }): WebhookDataGroup[] {
  const components = (document.components?.schemas ?? {}) as Components;
  const groups = new Map<string, WebhookDataGroup>();
  for (const event of WEBHOOK_EVENT_TYPES) {
    const body = (document.webhooks?.[event.type] as DocWebhook | undefined)?.post.requestBody.content["application/json"];
    if (!body) continue;
    const ref = body.schema.properties.data.$ref ?? "";
    const schemaName = ref.replace("#/components/schemas/", "");
    const group = groups.get(schemaName) ?? { schemaName, description: components[schemaName]?.description ?? null, events: [], fields: fieldRows(body.schema.properties.data, components) };
    group.events.push({ type: event.type, label: event.label, description: event.description, example: JSON.stringify(body.example, null, 2) });
    groups.set(schemaName, group);
  }
  return [...groups.values()];
}

/** The event bodies of this server's document. */
export function webhookReference(publicOrigin: string): WebhookDataGroup[] {
  return webhookReferenceOf(servedApiDocument(publicOrigin));
}
