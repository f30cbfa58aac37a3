import type { Logger } from "pino";

/**
 * Whether an error means the database cannot be reached right now (down, restarting, refusing
 * connections, out of connection slots), as opposed to a bug or a bad statement. Such a failure
 * is the operator's outage, not the caller's mistake: pages and the API answer 503 with
 * Retry-After, and background loops wait quietly for the database to come back.
 * Drizzle wraps the driver's error, so the whole `cause` chain is looked at.
 */
const UNREACHABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  // PostgreSQL's: connection exceptions (class 08), shut down by the administrator, crash, cannot
  // connect now (starting or stopping), and too many connections.
  "08000",
  "08001",
  "08003",
  "08004",
  "08006",
  "57P01",
  "57P02",
  "57P03",
  "53300",
]);
const UNREACHABLE_MESSAGES = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended unexpectedly)/i;

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 8; current = (current as { cause?: unknown }).cause, depth++) {
    if (typeof current !== "object") return false;
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === "string" && UNREACHABLE_CODES.has(code)) return true;
    if (typeof message === "string" && UNREACHABLE_MESSAGES.test(message)) return true;
  }
  return false;
}

/** Seconds a client is asked to wait before trying again while the database is away. */
export const OUTAGE_RETRY_AFTER_SECONDS = 30;

/**
 * What a background loop logs about its failures: an outage of the database once when it starts
 * (a warning) and once when it ends (how long it lasted), not once per retry; any other failure
 * as an error, each time.
 */
export type FailureLog = { failed(error: unknown, context?: object): void; succeeded(): void };

export function failureLog(logger: Pick<Logger, "info" | "warn" | "error"> | undefined, what: string, message: string, now: () => number = Date.now): FailureLog {
  let outageSince: number | null = null;
  return {
    failed(error, context = {}) {
      if (!isDatabaseUnavailable(error)) {
        logger?.error({ err: error, ...context }, message);
        return;
      }
      if (outageSince !== null) return;
      outageSince = now();
      logger?.warn({ err: error, ...context }, `${what}: the database cannot be reached; waiting for it to come back`);
    },
    succeeded() {
      if (outageSince === null) return;
      logger?.info({ outageMs: now() - outageSince }, `${what}: the database is back; carrying on`);
      outageSince = null;
    },
  };
}

/**
 * What the pool logs when its idle connections are cut: when the database restarts or the network
 * drops, every idle connection errors at once, so only the first of a burst is logged (a warning)
 * and the rest within `quietMs` of it are not; the pool opens new ones as they are needed.
 */
export function lostConnectionLog(logger: Pick<Logger, "warn">, quietMs = 60_000, now: () => number = Date.now): (error: Error) => void {
  let loggedAt = -Infinity;
  return (error) => {
    if (now() - loggedAt < quietMs) return;
    loggedAt = now();
    logger.warn({ err: error }, "database connections lost; the pool reconnects");
  };
}

/**
 * The requests whose loaders or actions met a database outage (keyed by their load context, one
 * object per request): React Router's error hook notes it, and the document or data answer
 * becomes a 503 instead of the error page's 500.
 */
const requestsInOutage = new WeakSet<object>();

export function noteOutage(requestContext: object): void {
  requestsInOutage.add(requestContext);
}

export function metOutage(requestContext: object): boolean {
  return requestsInOutage.has(requestContext);
}
