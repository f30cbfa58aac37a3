import { sql } from "drizzle-orm";
import { bigint, bigserial, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { user } from "./auth";

/**
 * A key for the public API (server/domains/api-keys/, ADR 0056). The key itself is shown once and never
 * stored: `hash` is an HMAC of it under a server secret, so a copy of this table cannot be
 * replayed against the API. `display` (`sg_live_AbCd…wxyz`) lets its owner tell keys apart.
 */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: text().primaryKey(),
    uid: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    name: text().notNull(),
    // live under Stripe, test under the sandbox: a key works only with the provider it was made for.
    mode: text().$type<"live" | "test">().notNull(),
    scopes: text().array().notNull(),
    hash: text().notNull(),
    display: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }),
    // Written at most once a minute per key (server/domains/api-keys/keys.ts), not on every request.
    lastUsedAt: timestamp({ withTimezone: true }),
    revokedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex("api_keys_hash_idx").on(t.hash),
    index("api_keys_uid_idx").on(t.uid, t.createdAt),
    check("api_keys_mode_check", sql`${t.mode} in ('live', 'test')`),
  ],
);

/**
 * The answer to a state-changing API call made with an `Idempotency-Key` header, kept a day so
 * a retried call gets the same answer instead of acting twice (server/features/api/idempotency.ts).
 * `response_status` null means the first call is still being answered.
 */
export const apiIdempotencyKeys = pgTable(
  "api_idempotency_keys",
  {
    uid: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    key: text().notNull(),
    // method, route and a hash of the body: the same key with another request is refused.
    fingerprint: text().notNull(),
    responseStatus: integer(),
    responseBody: jsonb(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.uid, t.key] }), index("api_idempotency_keys_created_idx").on(t.createdAt)],
);

/**
 * Where an account wants its events sent (server/platform/outgoing-webhooks/, ADR 0057). The signing
 * secret is stored encrypted (it must be read back to sign); after a rotation the previous one
 * keeps signing beside it until `previous_secret_expires_at`, so receivers can switch over.
 */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: text().primaryKey(),
    uid: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    url: text().notNull(),
    description: text().notNull().default(""),
    events: text().array().notNull(),
    secretCiphertext: text().notNull(),
    previousSecretCiphertext: text(),
    previousSecretExpiresAt: timestamp({ withTimezone: true }),
    // Attempts that failed in a row, and since when: repeated failure disables the endpoint.
    consecutiveFailures: integer().notNull().default(0),
    failingSince: timestamp({ withTimezone: true }),
    disabledAt: timestamp({ withTimezone: true }),
    disabledReason: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("webhook_endpoints_uid_idx").on(t.uid, t.createdAt)],
);

/**
 * One event that happened to an account (`msg_…`, the Standard Webhooks `webhook-id`), written
 * in the same transaction as the change it reports. `sequence` orders the events of one object
 * (`ordering_key`, e.g. `payment:<id>`): a later one is not sent to an endpoint before an earlier one.
 */
export const webhookEvents = pgTable(
  "webhook_events",
  {
    id: text().primaryKey(),
    sequence: bigserial({ mode: "number" }).notNull(),
    uid: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    type: text().notNull(),
    orderingKey: text().notNull(),
    payload: jsonb().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("webhook_events_uid_idx").on(t.uid, t.createdAt)],
);

export const WEBHOOK_DELIVERY_STATUSES = ["pending", "delivered", "failed"] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** One event on its way to one endpoint: retried until delivered or out of attempts. A resend is a new row. */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: text().primaryKey(),
    endpointId: text()
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    eventId: text()
      .notNull()
      .references(() => webhookEvents.id, { onDelete: "cascade" }),
    // Copied from the event, so the "nothing earlier of this object pending" check reads one table.
    orderingKey: text().notNull(),
    eventSequence: bigint({ mode: "number" }).notNull(),
    status: text().$type<WebhookDeliveryStatus>().notNull().default("pending"),
    attempts: integer().notNull().default(0),
    nextAttemptAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    // A process that claimed it holds it until then; after a crash another one takes it.
    leasedUntil: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index("webhook_deliveries_due_idx").on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index("webhook_deliveries_order_idx").on(t.endpointId, t.orderingKey, t.eventSequence).where(sql`${t.status} = 'pending'`),
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.createdAt),
    check("webhook_deliveries_status_check", sql`${t.status} in ('pending', 'delivered', 'failed')`),
  ],
);

/** What one attempt sent and what came back, for the endpoint's delivery log (bodies cut at 4 KB). */
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: text().primaryKey(),
    deliveryId: text()
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    attemptedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    requestHeaders: jsonb().$type<Record<string, string>>().notNull(),
    requestBody: text().notNull(),
    responseStatus: integer(),
    responseHeaders: jsonb().$type<Record<string, string>>(),
    responseBody: text(),
    // Why no response came (timeout, refused address, connection error).
    error: text(),
    durationMs: integer().notNull(),
  },
  (t) => [index("webhook_attempts_delivery_idx").on(t.deliveryId, t.attemptedAt)],
);
