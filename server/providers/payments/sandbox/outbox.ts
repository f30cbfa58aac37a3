import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { Db } from "#server/platform/db/client";
import { createWorkLoop } from "#server/platform/jobs/work-loop";
import { sandboxEvents } from "#server/providers/payments/sandbox/schema";
import type { PaymentEvent } from "#server/providers/payments/events";
import { sandboxId } from "./ids";
import { SIGNATURE_HEADER, signatureHeader } from "./signing";
import { failureLog } from "#server/platform/db/unavailable";

/** A database handle or an open transaction: events are stored in the caller's transaction. */
export type DbOrTx = Db | Parameters<Parameters<Db["transaction"]>[0]>[0];

/** Our normalised event, without the envelope the outbox fills in. */
export type SandboxEventBody = PaymentEvent extends infer E ? (E extends PaymentEvent ? Omit<E, "provider" | "eventId" | "occurredAt"> : never) : never;

/**
 * Stores an event in the caller's transaction, so it exists exactly when the
 * change it reports does (a rolled-back change sends nothing). Returns it.
 */
export async function recordSandboxEvent(tx: DbOrTx, body: SandboxEventBody, occurredAt = new Date()): Promise<PaymentEvent> {
  const event = { ...body, provider: "sandbox", eventId: sandboxId("evt"), occurredAt } as PaymentEvent;
  await tx.insert(sandboxEvents).values({
    id: event.eventId,
    type: event.type,
    payload: JSON.parse(JSON.stringify(event)) as Record<string, unknown>,
    created: occurredAt,
    nextAttemptAt: occurredAt,
  });
  return event;
}

/** Stores many events in one statement (the test clock's batches), in the caller's transaction. */
export async function recordSandboxEvents(tx: DbOrTx, bodies: readonly SandboxEventBody[], occurredAt = new Date()): Promise<void> {
  if (bodies.length === 0) return;
  await tx.insert(sandboxEvents).values(
    bodies.map((body) => {
      const event = { ...body, provider: "sandbox", eventId: sandboxId("evt"), occurredAt } as PaymentEvent;
      return { id: event.eventId, type: event.type, payload: JSON.parse(JSON.stringify(event)) as Record<string, unknown>, created: occurredAt, nextAttemptAt: occurredAt };
    }),
  );
}

/** Stripe retries for days; so does the sandbox: 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 6 h, 24 h. */
export const DEFAULT_EVENT_RETRY_DELAYS_MS = [5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 21_600_000, 86_400_000] as const;
/** A claimed event another process may take over if this one died mid-delivery. */
const DELIVERY_LEASE_MS = 60_000;
const DELIVERY_TIMEOUT_MS = 10_000;

export type SandboxOutboxOptions = {
  db: Db;
  /** `${PUBLIC_ORIGIN}/api/payments/webhooks/sandbox` */
  endpoint: string;
  signingKey: string;
  fetch?: typeof fetch;
  logger?: Pick<Logger, "info" | "warn" | "error">;
  retryDelaysMs?: readonly number[];
  pollMs?: number;
  now?: () => Date;
};

export type SandboxOutbox = {
  /** Sends every event that is due, now; how many were delivered. The worker calls it; so can tests. */
  deliverDue(): Promise<number>;
  /** Asks for a delivery soon, without waiting for it (after a change that stored an event). */
  kick(): void;
  /** Starts polling for retries and for events left by an earlier run. */
  start(): void;
  /** Stops polling and waits (bounded) for a delivery under way. */
  close(): Promise<void>;
};

export function createSandboxOutbox(options: SandboxOutboxOptions): SandboxOutbox {
  const { db, endpoint, signingKey, logger, retryDelaysMs = DEFAULT_EVENT_RETRY_DELAYS_MS, pollMs = 2_000 } = options;
  const send = options.fetch ?? fetch;
  const now = options.now ?? (() => new Date());

  /** Takes the oldest due event, leased so that no other process sends it meanwhile (one at a time: events go in order). */
  async function claimNext() {
    const at = now();
    const [row] = await db
      .update(sandboxEvents)
      .set({ attempts: sql`${sandboxEvents.attempts} + 1`, nextAttemptAt: new Date(at.getTime() + DELIVERY_LEASE_MS) })
      .where(
        eq(
          sandboxEvents.id,
          sql`(select id from ${sandboxEvents} where delivered_at is null and failed_at is null and next_attempt_at <= ${at} order by next_attempt_at, created limit 1 for update skip locked)`,
        ),
      )
      .returning();
    return row ? [row] : [];
  }

  async function deliverOne(row: typeof sandboxEvents.$inferSelect): Promise<boolean> {
    const body = JSON.stringify(row.payload);
    let problem: string;
    try {
      const response = await send(endpoint, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "User-Agent": "Sponsorgrid-Sandbox/1.0",
          [SIGNATURE_HEADER]: signatureHeader(signingKey, body, Math.floor(now().getTime() / 1000)),
        },
        body,
        signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
        redirect: "manual",
      });
      await response.body?.cancel().catch(() => {});
      if (response.ok) {
        await db.update(sandboxEvents).set({ deliveredAt: now(), lastError: null }).where(eq(sandboxEvents.id, row.id));
        logger?.info({ eventId: row.id, type: row.type, attempts: row.attempts }, "sandbox event delivered");
        return true;
      }
      problem = `HTTP ${response.status}`;
    } catch (error) {
      problem = error instanceof Error ? error.message : String(error);
    }
    const delay = retryDelaysMs[row.attempts - 1];
    if (delay === undefined) {
      await db.update(sandboxEvents).set({ failedAt: now(), lastError: problem }).where(eq(sandboxEvents.id, row.id));
      logger?.error({ eventId: row.id, type: row.type, attempts: row.attempts, problem }, "sandbox event not delivered; giving up");
    } else {
      await db
        .update(sandboxEvents)
        .set({ lastError: problem, nextAttemptAt: new Date(now().getTime() + delay) })
        .where(eq(sandboxEvents.id, row.id));
      logger?.warn({ eventId: row.id, type: row.type, attempts: row.attempts, retryInMs: delay, problem }, "sandbox event not delivered yet; will retry");
    }
    return false;
  }

  return createWorkLoop({
    claim: claimNext,
    work: deliverOne,
    pollMs,
    drainMs: DELIVERY_TIMEOUT_MS,
    failures: failureLog(logger, "sandbox events", "sandbox events could not be read"),
  });
}

/** Events not yet delivered, oldest first (tests, operators). */
export async function pendingSandboxEvents(db: Db) {
  return db
    .select()
    .from(sandboxEvents)
    .where(and(isNull(sandboxEvents.deliveredAt), isNull(sandboxEvents.failedAt)))
    .orderBy(asc(sandboxEvents.created));
}
