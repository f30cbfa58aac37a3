import type { IncomingMessage, ServerResponse } from "node:http";
import { sql } from "drizzle-orm";
import { readMigrationFiles } from "drizzle-orm/migrator";
import type { Db } from "#server/platform/db/client";
import type { MigrationChain } from "#server/platform/db/migrate";

/**
 * Liveness and readiness for a load balancer or Kubernetes (ADR 0041), answered by the top-level
 * listener before the bio host, photos, guest pages and Express, on both hosts:
 *
 * - `/livez`: the event loop answers. No I/O, so a slow database never gets a live process killed.
 * - `/readyz`: this process should get traffic: not shutting down, the database answers within
 *   `timeoutMs`, every migration this code knows is recorded there, and each background part that
 *   reports (the notification LISTEN connection, delivery loops' heartbeats) is up.
 */
export type Probes = {
  /** Answers `/livez` and `/readyz`; false for any other request. */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
  readiness(): Promise<Readiness>;
  /** SIGTERM: from now on `/readyz` says 503 "shutting down" while requests are still served. */
  shuttingDown(): void;
  health: Health;
};

export type Readiness = { ready: true } | { ready: false; reason: string };

/** Where background work says how it is (the composition root hands it to the parts that report). */
export type Health = {
  /** A part that is down until `up` (a LISTEN connection lost and reconnecting). */
  down(part: string, reason: string): void;
  up(part: string): void;
  /** A loop's round finished; `expectBeats` says how long silence may last before it counts as stuck. */
  beat(part: string): void;
  expectBeats(part: string, maxSilenceMs: number): void;
  /** A part that can tell for itself why it is stuck (the job scheduler), asked at each readiness check. */
  watch(part: string, stuck: () => string | null): void;
};

export type ProbeOptions = {
  db: Db;
  /** The migration chains this process ran at start (the product's, the provider's). */
  chains: readonly MigrationChain[];
  /** The longest a readiness query may take before the database counts as unreachable. */
  timeoutMs?: number;
  /** How long the database's answer is reused: probes from many balancers cost one query per period. */
  reuseMs?: number;
  now?: () => number;
};

export const LIVEZ_PATH = "/livez";
export const READYZ_PATH = "/readyz";

/** The newest migration of each chain as this code knows it (drizzle records `folderMillis` as `created_at`). */
export function expectedMigrations(chains: readonly MigrationChain[]): { table: string; createdAt: number }[] {
  return chains.map((chain) => {
    const files = readMigrationFiles({ migrationsFolder: chain.folder });
    return { table: chain.table, createdAt: files.at(-1)?.folderMillis ?? 0 };
  });
}

export function createProbes({ db, chains, timeoutMs = 2_000, reuseMs = 250, now = Date.now }: ProbeOptions): Probes {
  const expected = expectedMigrations(chains);
  // Table names are the code's own constants (migrate.ts), never input.
  const recorded = sql.raw(
    `select ${expected.map((chain, i) => `(select max(created_at) from "drizzle"."${chain.table}") as c${i}`).join(", ")}`,
  );
  const downParts = new Map<string, string>();
  const beats = new Map<string, { maxSilenceMs: number; last: number }>();
  const watched = new Map<string, () => string | null>();
  let stopping = false;
  // Probes from many balancers at once share one query in flight, and its answer for `reuseMs`.
  let inFlight: Promise<Readiness> | null = null;
  let lastAnswer: { at: number; readiness: Readiness } | null = null;

  const checkDatabase = async (): Promise<Readiness> => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), timeoutMs);
    });
    try {
      const answer = await Promise.race([db.execute(recorded) as unknown as Promise<{ rows: Record<string, string | number | null>[] }>, timeout]);
      if (answer === "timeout") return { ready: false, reason: `database did not answer within ${timeoutMs} ms` };
      const row = answer.rows[0] ?? {};
      for (const [i, chain] of expected.entries()) {
        const applied = Number(row[`c${i}`] ?? 0);
        // Newer is fine: a process started from a later release migrated while this one runs.
        if (applied < chain.createdAt) return { ready: false, reason: `migrations not applied (${chain.table})` };
      }
      return { ready: true };
    } catch (error) {
      // 42P01: no migrations table at all — reachable, but nothing was ever migrated.
      if ((error as { code?: string }).code === "42P01" || (error as { cause?: { code?: string } }).cause?.code === "42P01") {
        return { ready: false, reason: "migrations not applied" };
      }
      return { ready: false, reason: `database unreachable: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}` };
    } finally {
      clearTimeout(timer);
    }
  };

  const databaseReadiness = (): Readiness | Promise<Readiness> => {
    if (lastAnswer && now() - lastAnswer.at < reuseMs) return lastAnswer.readiness;
    inFlight ??= checkDatabase()
      .then((readiness) => {
        lastAnswer = { at: now(), readiness };
        return readiness;
      })
      .finally(() => (inFlight = null));
    return inFlight;
  };

  const readiness = async (): Promise<Readiness> => {
    if (stopping) return { ready: false, reason: "shutting down" };
    const [down] = downParts;
    if (down) return { ready: false, reason: `${down[0]}: ${down[1]}` };
    for (const [part, stuck] of watched) {
      const reason = stuck();
      if (reason) return { ready: false, reason: `${part}: ${reason}` };
    }
    for (const [part, beat] of beats) {
      const silence = now() - beat.last;
      if (silence > beat.maxSilenceMs) return { ready: false, reason: `${part}: no heartbeat for ${Math.round(silence / 1000)} s` };
    }
    const answer = await databaseReadiness();
    // The signal may have come while the query ran.
    return stopping ? { ready: false, reason: "shutting down" } : answer;
  };

  const health: Health = {
    down: (part, reason) => void downParts.set(part, reason),
    up: (part) => void downParts.delete(part),
    beat: (part) => {
      const known = beats.get(part);
      if (known) known.last = now();
    },
    expectBeats: (part, maxSilenceMs) => void beats.set(part, { maxSilenceMs, last: now() }),
    watch: (part, stuck) => void watched.set(part, stuck),
  };

  return {
    health,
    readiness,
    shuttingDown: () => {
      stopping = true;
    },
    handle(req, res) {
      const path = pathOf(req.url);
      if (path !== LIVEZ_PATH && path !== READYZ_PATH) return false;
      if (req.method !== "GET" && req.method !== "HEAD") {
        answer(res, req, 405, "GET or HEAD\n", ["Allow", "GET, HEAD"]);
        return true;
      }
      if (path === LIVEZ_PATH) {
        answer(res, req, 200, "ok\n");
        return true;
      }
      readiness().then(
        (state) => answer(res, req, state.ready ? 200 : 503, state.ready ? "ready\n" : `not ready: ${state.reason}\n`),
        (error: unknown) => answer(res, req, 503, `not ready: ${String(error)}\n`),
      );
      return true;
    },
  };
}

function pathOf(url: string | undefined): string {
  const end = url?.indexOf("?") ?? -1;
  return end === -1 ? (url ?? "/") : url!.slice(0, end);
}

function answer(res: ServerResponse, req: IncomingMessage, status: number, body: string, extra: string[] = []) {
  if (res.headersSent) return;
  const bytes = Buffer.from(body);
  res.writeHead(status, [
    "Content-Type",
    "text/plain; charset=utf-8",
    "Content-Length",
    String(bytes.length),
    // Every probe must reach this process: no proxy or browser may answer it from a copy.
    "Cache-Control",
    "no-store",
    "X-Content-Type-Options",
    "nosniff",
    ...extra,
  ]);
  res.end(req.method === "HEAD" ? undefined : bytes);
}
