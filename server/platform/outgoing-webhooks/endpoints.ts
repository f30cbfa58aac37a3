import { and, count, desc, eq } from "drizzle-orm";
import { nanoid } from "nanoid";
import type { Db } from "#server/platform/db/client";
import { webhookEndpoints } from "#server/platform/db/schema";
import { fieldRefusal, refusal, success, type FieldRefusal, type Refusal, type Result } from "#server/platform/errors";
import { isWebhookEventType, MAX_WEBHOOK_ENDPOINTS_PER_ACCOUNT, WEBHOOK_DESCRIPTION_MAX, WEBHOOK_EVENT_TYPES, type WebhookEventType } from "#isomorphic/webhook-events";
import { generateSigningSecret, sealSecret } from "./secrets";
import { webhookUrlProblem, type WebhookTargets } from "./targets";

/** How long the secret a rotation replaced keeps signing beside the new one, so receivers can switch over. */
export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** An endpoint as its owner sees it: never its secrets. */
export type WebhookEndpointView = {
  id: string;
  url: string;
  description: string;
  events: WebhookEventType[];
  enabled: boolean;
  disabledAt: Date | null;
  disabledReason: string | null;
  consecutiveFailures: number;
  failingSince: Date | null;
  /** After a rotation: until when the previous secret still signs too (null when it no longer does). */
  previousSecretExpiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
};

export type WebhookEndpointInput = { url: string; description: string; events: readonly string[] };
export type WebhookEndpointFieldErrors = { url?: string; description?: string; events?: string };

export type EndpointNotFound = Refusal<"not-found", "ENDPOINT_NOT_FOUND">;
type Owned = { uid: string; endpointId: string; now?: Date };

const notFound = (): EndpointNotFound => refusal("not-found", "ENDPOINT_NOT_FOUND", "There is no such webhook endpoint on your account.");

function readInput(input: WebhookEndpointInput, targets: WebhookTargets): FieldRefusal<WebhookEndpointFieldErrors> | { url: string; description: string; events: WebhookEventType[] } {
  const url = input.url.trim();
  const description = input.description.trim();
  const fieldErrors: WebhookEndpointFieldErrors = {};
  const urlProblem = webhookUrlProblem(url, targets);
  if (urlProblem) fieldErrors.url = urlProblem;
  if (description.length > WEBHOOK_DESCRIPTION_MAX) fieldErrors.description = `Use at most ${WEBHOOK_DESCRIPTION_MAX} characters.`;
  const chosen = new Set(input.events);
  if (chosen.size === 0) fieldErrors.events = "Choose at least one event to send.";
  else if (![...chosen].every(isWebhookEventType)) fieldErrors.events = "Choose events from the list.";
  if (Object.keys(fieldErrors).length > 0) return fieldRefusal(fieldErrors);
  // In the list's order, whatever order the form sent them in.
  return { url, description, events: WEBHOOK_EVENT_TYPES.map((event) => event.type).filter((type) => chosen.has(type)) };
}

/**
 * Registers an endpoint for `uid` with a new signing secret, which is in the answer and, sealed,
 * in the database: the page shows it once, and it is never shown again (a rotation makes another).
 */
export async function createWebhookEndpoint(
  db: Db,
  { uid, sessionSecret, targets, now = new Date() }: { uid: string; sessionSecret: string; targets: WebhookTargets; now?: Date },
  input: WebhookEndpointInput,
): Promise<Result<{ endpoint: WebhookEndpointView; secret: string }, FieldRefusal<WebhookEndpointFieldErrors> | Refusal<"resource-exhausted", "TOO_MANY_ENDPOINTS">>> {
  const read = readInput(input, targets);
  if ("kind" in read) return read;
  const [{ existing } = { existing: 0 }] = await db.select({ existing: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.uid, uid));
  if (existing >= MAX_WEBHOOK_ENDPOINTS_PER_ACCOUNT) {
    return refusal("resource-exhausted", "TOO_MANY_ENDPOINTS", `You have ${MAX_WEBHOOK_ENDPOINTS_PER_ACCOUNT} endpoints, the most an account can have. Delete one you no longer use first.`);
  }
  const secret = generateSigningSecret();
  const [row] = await db
    .insert(webhookEndpoints)
    .values({ id: `ep_${nanoid(16)}`, uid, ...read, secretCiphertext: sealSecret(secret, sessionSecret), createdAt: now, updatedAt: now })
    .returning();
  return success({ endpoint: viewOf(row!, now), secret });
}

/** The account's endpoints, newest first. */
export async function listWebhookEndpoints(db: Db, uid: string, now = new Date()): Promise<WebhookEndpointView[]> {
  const rows = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.uid, uid)).orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id));
  return rows.map((row) => viewOf(row, now));
}

/** One of the caller's endpoints; anyone else's is not found. */
export async function getWebhookEndpoint(db: Db, { uid, endpointId, now = new Date() }: Owned): Promise<Result<{ endpoint: WebhookEndpointView }, EndpointNotFound>> {
  const [row] = await db.select().from(webhookEndpoints).where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.uid, uid)));
  return row ? success({ endpoint: viewOf(row, now) }) : notFound();
}

/** Changes the address, description and events; the secret and the failure count stay. */
export async function updateWebhookEndpoint(
  db: Db,
  { uid, endpointId, targets, now = new Date() }: Owned & { targets: WebhookTargets },
  input: WebhookEndpointInput,
): Promise<Result<{ endpoint: WebhookEndpointView }, FieldRefusal<WebhookEndpointFieldErrors> | EndpointNotFound>> {
  const read = readInput(input, targets);
  if ("kind" in read) return read;
  return changed(db, { uid, endpointId, now }, { ...read, updatedAt: now });
}

/**
 * Turns an endpoint (back) on: whether the owner turned it off or repeated failures did, it starts
 * afresh, with no failures counted, and gets the events that happen from now on.
 */
export function enableWebhookEndpoint(db: Db, { uid, endpointId, now = new Date() }: Owned): Promise<Result<{ endpoint: WebhookEndpointView }, EndpointNotFound>> {
  return changed(db, { uid, endpointId, now }, { disabledAt: null, disabledReason: null, consecutiveFailures: 0, failingSince: null, updatedAt: now });
}

/** The owner pauses an endpoint: no events are queued for it until it is turned on again. */
export function disableWebhookEndpoint(db: Db, { uid, endpointId, now = new Date() }: Owned): Promise<Result<{ endpoint: WebhookEndpointView }, EndpointNotFound>> {
  return changed(db, { uid, endpointId, now }, { disabledAt: now, disabledReason: "Turned off by you.", updatedAt: now });
}

/** Deletes an endpoint with its delivery log (the foreign keys cascade). */
export async function deleteWebhookEndpoint(db: Db, { uid, endpointId }: Owned): Promise<Result<{ deleted: string }, EndpointNotFound>> {
  const [row] = await db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.uid, uid)))
    .returning({ id: webhookEndpoints.id });
  return row ? success({ deleted: row.id }) : notFound();
}

/**
 * A new signing secret, shown once. The one it replaces keeps signing beside it for 24 hours
 * (deliveries carry both signatures), so a receiver that still checks the old one keeps working
 * while its owner puts the new one in. A second rotation within the day drops the oldest.
 */
export async function rotateWebhookSecret(
  db: Db,
  { uid, endpointId, sessionSecret, now = new Date() }: Owned & { sessionSecret: string },
): Promise<Result<{ endpoint: WebhookEndpointView; secret: string }, EndpointNotFound>> {
  const secret = generateSigningSecret();
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select({ secretCiphertext: webhookEndpoints.secretCiphertext })
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.uid, uid)))
      .for("update");
    if (!current) return notFound();
    const [row] = await tx
      .update(webhookEndpoints)
      .set({
        secretCiphertext: sealSecret(secret, sessionSecret),
        previousSecretCiphertext: current.secretCiphertext,
        previousSecretExpiresAt: new Date(now.getTime() + SECRET_OVERLAP_MS),
        updatedAt: now,
      })
      .where(eq(webhookEndpoints.id, endpointId))
      .returning();
    return success({ endpoint: viewOf(row!, now), secret });
  });
}

async function changed(
  db: Db,
  { uid, endpointId, now }: Owned & { now: Date },
  set: Partial<typeof webhookEndpoints.$inferInsert>,
): Promise<Result<{ endpoint: WebhookEndpointView }, EndpointNotFound>> {
  const [row] = await db
    .update(webhookEndpoints)
    .set(set)
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.uid, uid)))
    .returning();
  return row ? success({ endpoint: viewOf(row, now) }) : notFound();
}

function viewOf(row: typeof webhookEndpoints.$inferSelect, now: Date): WebhookEndpointView {
  const overlapping = row.previousSecretCiphertext !== null && row.previousSecretExpiresAt !== null && row.previousSecretExpiresAt > now;
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events.filter(isWebhookEventType),
    enabled: row.disabledAt === null,
    disabledAt: row.disabledAt,
    disabledReason: row.disabledReason,
    consecutiveFailures: row.consecutiveFailures,
    failingSince: row.failingSince,
    previousSecretExpiresAt: overlapping ? row.previousSecretExpiresAt : null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
