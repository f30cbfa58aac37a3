import { and, asc, desc, eq, inArray, lt, or } from "drizzle-orm";
import { nanoid } from "nanoid";
import type { Db } from "#server/platform/db/client";
import { webhookAttempts, webhookDeliveries, webhookEndpoints, webhookEvents, type WebhookDeliveryStatus } from "#server/platform/db/schema";
import { refusal, success, type Refusal, type Result } from "#server/platform/errors";
import type { EndpointNotFound } from "./endpoints";

export const DELIVERIES_PAGE_SIZE = 20;
/** The type of the event "Send test event" sends: not one anyone subscribes to, so it goes only where it is asked for. */
export const TEST_EVENT_TYPE = "webhook.test";

export type WebhookAttemptView = {
  id: string;
  attemptedAt: Date;
  requestHeaders: Record<string, string>;
  requestBody: string;
  responseStatus: number | null;
  responseHeaders: Record<string, string> | null;
  responseBody: string | null;
  error: string | null;
  durationMs: number;
};

export type WebhookDeliveryView = {
  id: string;
  eventId: string;
  eventType: string;
  status: WebhookDeliveryStatus;
  /** Attempts made so far (`attempts` holds what each sent and got, oldest first). */
  attemptCount: number;
  nextAttemptAt: Date | null;
  createdAt: Date;
  finishedAt: Date | null;
  attempts: WebhookAttemptView[];
};

export type DeliveryNotFound = Refusal<"not-found", "DELIVERY_NOT_FOUND">;
const deliveryNotFound = (): DeliveryNotFound => refusal("not-found", "DELIVERY_NOT_FOUND", "There is no such delivery on your account.");
const endpointNotFound = (): EndpointNotFound => refusal("not-found", "ENDPOINT_NOT_FOUND", "There is no such webhook endpoint on your account.");

/** The place after a page's last delivery (its time and id), as an opaque token for the "Older" link. */
export function deliveryCursorOf(delivery: Pick<WebhookDeliveryView, "createdAt" | "id">): string {
  return Buffer.from(`${delivery.createdAt.toISOString()}|${delivery.id}`).toString("base64url");
}

function readCursor(cursor: string | null | undefined): { createdAt: Date; id: string } | null {
  if (!cursor) return null;
  const [at, id] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  const createdAt = new Date(at ?? "");
  return id && !Number.isNaN(createdAt.getTime()) ? { createdAt, id } : null;
}

async function ownsEndpoint(db: Db, uid: string, endpointId: string): Promise<boolean> {
  const [row] = await db.select({ id: webhookEndpoints.id }).from(webhookEndpoints).where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.uid, uid)));
  return row !== undefined;
}

const DELIVERY_COLUMNS = {
  id: webhookDeliveries.id,
  eventId: webhookDeliveries.eventId,
  eventType: webhookEvents.type,
  status: webhookDeliveries.status,
  attemptCount: webhookDeliveries.attempts,
  nextAttemptAt: webhookDeliveries.nextAttemptAt,
  createdAt: webhookDeliveries.createdAt,
  finishedAt: webhookDeliveries.finishedAt,
};

async function withAttempts(db: Db, rows: Omit<WebhookDeliveryView, "attempts">[]): Promise<WebhookDeliveryView[]> {
  if (rows.length === 0) return [];
  const attempts = await db
    .select()
    .from(webhookAttempts)
    .where(inArray(webhookAttempts.deliveryId, rows.map((row) => row.id)))
    .orderBy(asc(webhookAttempts.attemptedAt), asc(webhookAttempts.id));
  return rows.map((row) => ({
    ...row,
    // A finished delivery has no next attempt, whatever the column last held.
    nextAttemptAt: row.status === "pending" ? row.nextAttemptAt : null,
    attempts: attempts.filter((attempt) => attempt.deliveryId === row.id).map(({ deliveryId: _, ...attempt }) => attempt),
  }));
}

/**
 * One endpoint's delivery log, newest first, a page at a time, each delivery with every attempt
 * it took (what was sent and what came back). Another account's endpoint is not found.
 */
export async function listWebhookDeliveries(
  db: Db,
  { uid, endpointId, cursor, pageSize = DELIVERIES_PAGE_SIZE }: { uid: string; endpointId: string; cursor?: string | null; pageSize?: number },
): Promise<Result<{ deliveries: WebhookDeliveryView[]; nextCursor: string | null }, EndpointNotFound>> {
  if (!(await ownsEndpoint(db, uid, endpointId))) return endpointNotFound();
  const after = readCursor(cursor);
  const rows = await db
    .select(DELIVERY_COLUMNS)
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(
      and(
        eq(webhookDeliveries.endpointId, endpointId),
        after ? or(lt(webhookDeliveries.createdAt, after.createdAt), and(eq(webhookDeliveries.createdAt, after.createdAt), lt(webhookDeliveries.id, after.id))) : undefined,
      ),
    )
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(pageSize + 1);
  const page = rows.slice(0, pageSize);
  const deliveries = await withAttempts(db, page);
  return success({ deliveries, nextCursor: rows.length > pageSize ? deliveryCursorOf(page[page.length - 1]!) : null });
}

/** One delivery of one of the caller's endpoints, with its attempts; anyone else's is not found. */
export async function getWebhookDelivery(db: Db, { uid, deliveryId }: { uid: string; deliveryId: string }): Promise<Result<{ delivery: WebhookDeliveryView; endpointId: string }, DeliveryNotFound>> {
  const [row] = await db
    .select({ ...DELIVERY_COLUMNS, endpointId: webhookDeliveries.endpointId })
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookEndpoints.uid, uid)));
  if (!row) return deliveryNotFound();
  const { endpointId, ...delivery } = row;
  const [view] = await withAttempts(db, [delivery]);
  return success({ delivery: view!, endpointId });
}

type Kick = { kick?: () => void; now?: Date };

/**
 * Sends a delivery's event to its endpoint again: a new delivery of the same event (same
 * `webhook-id`, so a receiver that saw it already can tell), picked up by the delivery worker.
 * While the event is still on its way there (pending, maybe waiting out a backoff), that delivery
 * is tried now instead of adding a second one. A turned-off endpoint gets nothing.
 */
export async function resendWebhookDelivery(
  db: Db,
  { uid, deliveryId, kick, now = new Date() }: { uid: string; deliveryId: string } & Kick,
): Promise<Result<{ deliveryId: string; endpointId: string; outcome: "QUEUED" | "RETRYING_NOW" }, DeliveryNotFound | Refusal<"aborted", "ENDPOINT_DISABLED">>> {
  const answer = await db.transaction(async (tx) => {
    const [source] = await tx
      .select({ endpointId: webhookDeliveries.endpointId, eventId: webhookDeliveries.eventId, orderingKey: webhookDeliveries.orderingKey, eventSequence: webhookDeliveries.eventSequence, disabledAt: webhookEndpoints.disabledAt })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookEndpoints.uid, uid)))
      .for("update", { of: webhookEndpoints });
    if (!source) return deliveryNotFound();
    if (source.disabledAt) return refusal("aborted", "ENDPOINT_DISABLED", "This endpoint is turned off. Turn it on first, then send the event again.");
    const [pending] = await tx
      .update(webhookDeliveries)
      .set({ nextAttemptAt: now })
      .where(and(eq(webhookDeliveries.endpointId, source.endpointId), eq(webhookDeliveries.eventId, source.eventId), eq(webhookDeliveries.status, "pending")))
      .returning({ id: webhookDeliveries.id });
    if (pending) return success({ deliveryId: pending.id, endpointId: source.endpointId, outcome: "RETRYING_NOW" as const });
    const [row] = await tx
      .insert(webhookDeliveries)
      .values({ id: `wd_${nanoid(20)}`, endpointId: source.endpointId, eventId: source.eventId, orderingKey: source.orderingKey, eventSequence: source.eventSequence, nextAttemptAt: now, createdAt: now })
      .returning({ id: webhookDeliveries.id });
    return success({ deliveryId: row!.id, endpointId: source.endpointId, outcome: "QUEUED" as const });
  });
  if (answer.kind === "SUCCESS") kick?.();
  return answer;
}

/**
 * A `webhook.test` event for one endpoint, so its owner can see a delivery (and check their
 * signature code) without waiting for something to happen. Sent even to events it does not list.
 */
export async function sendTestWebhookEvent(
  db: Db,
  { uid, endpointId, kick, now = new Date() }: { uid: string; endpointId: string } & Kick,
): Promise<Result<{ deliveryId: string; eventId: string }, EndpointNotFound | Refusal<"aborted", "ENDPOINT_DISABLED">>> {
  const answer = await db.transaction(async (tx) => {
    const [endpoint] = await tx
      .select({ disabledAt: webhookEndpoints.disabledAt })
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.uid, uid)));
    if (!endpoint) return endpointNotFound();
    if (endpoint.disabledAt) return refusal("aborted", "ENDPOINT_DISABLED", "This endpoint is turned off. Turn it on first, then send a test event.");
    const orderingKey = `test:${endpointId}`;
    const payload = { type: TEST_EVENT_TYPE, timestamp: now.toISOString(), data: { endpointId, message: "A test event, sent from My Account. Nothing happened on your account." } };
    const [event] = await tx
      .insert(webhookEvents)
      .values({ id: `msg_${nanoid(24)}`, uid, type: TEST_EVENT_TYPE, orderingKey, payload, createdAt: now })
      .returning({ id: webhookEvents.id, sequence: webhookEvents.sequence });
    const [delivery] = await tx
      .insert(webhookDeliveries)
      .values({ id: `wd_${nanoid(20)}`, endpointId, eventId: event!.id, orderingKey, eventSequence: event!.sequence, nextAttemptAt: now, createdAt: now })
      .returning({ id: webhookDeliveries.id });
    return success({ deliveryId: delivery!.id, eventId: event!.id });
  });
  if (answer.kind === "SUCCESS") kick?.();
  return answer;
}
