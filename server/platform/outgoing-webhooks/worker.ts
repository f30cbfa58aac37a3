import type { Logger } from "pino";
import type { Db } from "#server/platform/db/client";
import type { Mailer } from "#server/platform/email/mailer";
import type { EmailSite } from "#server/platform/email/messages";
import { createWorkLoop } from "#server/platform/jobs/work-loop";
import { claimDue, releaseClaims, type ClaimedDelivery } from "./claim";
import { createAgents, postWebhook, type PostOutcome } from "./post";
import { recordAttempt } from "./record";
import { DEFAULT_DISABLE_THRESHOLDS, DEFAULT_RETRY_SCHEDULE_MS, retryDelayAfter, type DisableThresholds } from "./retry";
import { signedHeaders, UNREADABLE_SECRET_ERROR, unsignedHeaders } from "./signing";
import type { Resolver, WebhookTargets } from "./targets";
import { failureLog } from "#server/platform/db/unavailable";

/** delivered: a 2xx; retry: failed, tried again later; failed: failed for the last time. */
export type AttemptOutcome = "delivered" | "retry" | "failed";

export type WebhookWorkerOptions = {
  db: Db;
  /** Opens the endpoints' sealed signing secrets. */
  sessionSecret: string;
  logger: Logger;
  /** Where deliveries may go (WEBHOOK_PRIVATE_TARGETS, targets.ts). */
  targets: WebhookTargets;
  /** The "endpoint disabled" mail: the outbox (used inside the disabling transaction) and the site's facts. */
  mail: { mailer: Pick<Mailer, "sendWithin">; site: EmailSite & { publicOrigin: string } };
  /** Told of every attempt's outcome and time (the metrics, server/main/service-metrics.ts). */
  onAttempt?: (outcome: AttemptOutcome, seconds: number) => void;
  /** Deliveries under way at once in this process (each its own lane of the shared work loop). */
  concurrency?: number;
  /** How often an idle worker looks for due retries and rows left by other processes. */
  pollMs?: number;
  /** How long a claimed delivery stays this process's; after a crash another one retakes it then. */
  leaseMs?: number;
  /** One attempt, all told. */
  timeoutMs?: number;
  /** How long close() waits for attempts under way. */
  drainMs?: number;
  retryScheduleMs?: readonly number[];
  disableAfter?: DisableThresholds;
  /** DNS for the address check (tests pass a fake). */
  resolve?: Resolver;
  now?: () => Date;
};

export type WebhookWorker = {
  /** Asks for a round now (after queuing events or a resend); returns at once. */
  kick(): void;
  /** Delivers everything due, now, on every lane; how many were delivered. Tests and tools. */
  deliverDue(): Promise<number>;
  /** Polls every `pollMs`, starting with a round now. */
  start(): void;
  /** Stops, and waits (at most `drainMs`) for attempts under way; pending rows stay for the next start. */
  close(): Promise<void>;
};

const notSignable = (): PostOutcome => ({ status: null, headers: null, body: null, error: UNREADABLE_SECRET_ERROR, durationMs: 0 });

/**
 * The outgoing webhook worker (ADR 0057). Deliveries are rows: a process claims due ones with
 * `for update skip locked` and a lease (`leased_until`, claim.ts), so any number of processes
 * share the queue and a killed one's claims are retaken when their lease runs out. A delivery is not
 * claimed while an earlier one (lower event sequence) of the same object to the same endpoint is
 * still pending — whether under way, waiting for a retry or claimed by another process — so each
 * object's events arrive in order. Every attempt is recorded with the delivery's new state and
 * the endpoint's health (record.ts).
 */
export function createWebhookWorker(options: WebhookWorkerOptions): WebhookWorker {
  const {
    db,
    sessionSecret,
    logger,
    targets,
    mail,
    onAttempt,
    concurrency = 8,
    pollMs = 1_000,
    leaseMs = 60_000,
    timeoutMs = 10_000,
    drainMs = 12_000,
    retryScheduleMs = DEFAULT_RETRY_SCHEDULE_MS,
    disableAfter = DEFAULT_DISABLE_THRESHOLDS,
    resolve,
    now = () => new Date(),
  } = options;
  const agents = createAgents();
  async function deliverOne({ delivery, endpoint, payload }: ClaimedDelivery): Promise<boolean> {
    const body = JSON.stringify(payload);
    const at = now();
    const signed = signedHeaders(endpoint, { eventId: delivery.eventId, body, at, sessionSecret });
    const headers = signed ?? unsignedHeaders(delivery.eventId, at);
    // Unsigned, it is not sent: the attempt fails like any other, so the owner sees why in the
    // log, retries wait, and the endpoint is turned off with a mail if it goes on.
    const outcome = signed ? await postWebhook({ url: endpoint.url, headers, body, timeoutMs, targets, resolve, agents }) : notSignable();
    const delivered = outcome.error === null && outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
    // An address that is refused as written will be refused at every retry: it fails at once.
    const retryInMs = delivered || outcome.permanent ? null : retryDelayAfter(delivery.attempts, retryScheduleMs);
    const result = delivered ? "delivered" : retryInMs === null ? "failed" : "retry";
    await recordAttempt({ db, logger, mail, disableAfter, finishedAt: now() }, { delivery, endpoint, headers, body, at, outcome, result, retryInMs });
    onAttempt?.(result, outcome.durationMs / 1000);
    if (!delivered) {
      logger.warn(
        { deliveryId: delivery.id, endpointId: delivery.endpointId, eventId: delivery.eventId, attempt: delivery.attempts, status: outcome.status, error: outcome.error, retryInMs },
        result === "failed" ? "webhook delivery failed; giving up" : "webhook delivery attempt failed; will retry",
      );
    }
    return delivered;
  }

  // Lanes (server/platform/jobs/work-loop.ts): a slow endpoint holds one lane, not the queue.
  const loop = createWorkLoop<ClaimedDelivery>({
    claim: (limit) => claimDue(db, { at: now(), leaseMs, limit }),
    work: deliverOne,
    // Claimed but not started: given back now rather than held until their lease runs out.
    release: (claims) =>
      releaseClaims(db, claims).catch((error: unknown) => logger.warn({ err: error }, "unstarted webhook claims not released; they are retaken when their lease runs out")),
    lanes: concurrency,
    pollMs,
    drainMs,
    failures: failureLog(logger, "webhook deliveries", "webhook delivery queue could not be read; the next poll tries again"),
  });

  return {
    kick: loop.kick,
    deliverDue: loop.deliverDue,
    start: loop.start,
    async close() {
      await loop.close();
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}
