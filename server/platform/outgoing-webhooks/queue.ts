import { and, arrayContains, eq, isNull } from "drizzle-orm";
import { nanoid } from "nanoid";
import type { Db } from "#server/platform/db/client";
import { webhookDeliveries, webhookEndpoints, webhookEvents } from "#server/platform/db/schema";
import type { WebhookEventType } from "#isomorphic/webhook-events";

export type WebhookEventInput = {
  uid: string;
  type: WebhookEventType;
  /** The object the event is about (`payment:<id>`): its events reach each endpoint in the order they were queued. */
  orderingKey: string;
  /** The object as the API answers it (JSON: dates as ISO strings). */
  data: unknown;
  now?: Date;
};

/** The body every endpoint receives (Standard Webhooks' recommended shape). */
export type WebhookPayload = { type: WebhookEventType; timestamp: string; data: unknown };

/**
 * Records an event for `uid` and one delivery per endpoint of theirs that is enabled and
 * subscribed to its type. Call it with the transaction that makes the change it reports: the
 * event exists exactly when the change does, and the delivery worker (delivery.ts), which reads
 * only committed rows, sends it after the commit. Returns the event's id (`msg_…`, the
 * `webhook-id` receivers deduplicate by), or null when no endpoint wants it.
 */
export async function queueWebhookEvent(db: Db, { uid, type, orderingKey, data, now = new Date() }: WebhookEventInput): Promise<string | null> {
  const endpoints = await db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.uid, uid), isNull(webhookEndpoints.disabledAt), arrayContains(webhookEndpoints.events, [type])));
  if (endpoints.length === 0) return null;
  const payload: WebhookPayload = { type, timestamp: now.toISOString(), data };
  const [event] = await db
    .insert(webhookEvents)
    .values({ id: `msg_${nanoid(24)}`, uid, type, orderingKey, payload, createdAt: now })
    .returning({ id: webhookEvents.id, sequence: webhookEvents.sequence });
  await db.insert(webhookDeliveries).values(
    endpoints.map((endpoint) => ({ id: `wd_${nanoid(20)}`, endpointId: endpoint.id, eventId: event!.id, orderingKey, eventSequence: event!.sequence, nextAttemptAt: now, createdAt: now })),
  );
  return event!.id;
}
