import crypto from "node:crypto";
import { sql } from "drizzle-orm";
import type { Db, DatabaseHandle } from "#server/platform/db/client";

/**
 * Which version of the marketplace data a cached guest page shows.
 *
 * Every write to a row a guest page shows (a post, a heart, a bio page, a disabled account…)
 * moves the sequence `guest_page_generation`, from a database trigger (migration 0022), so no
 * writer can forget to. A cached page is served only when the generation it was rendered at is
 * still the current one. On PostgreSQL the current one reaches each process by notification, a
 * moment after the commit; a request that may follow its sender's own write asks `synced()`, so
 * that person never sees the page from before their change, whichever process answers.
 */
export type GenerationSource = {
  /** The current generation, read after this call was made. */
  current(): Promise<string> | string;
  /**
   * The generation once this process has seen every change committed before the call, whichever
   * process committed it: for a request that may follow its sender's own write (ADR 0046). Where
   * `current()` already guarantees that (one process, or a read per batch), it is left out.
   */
  synced?(): Promise<string> | string;
};

/** A generation source the root started; closing it stops what it listens to. */
export type RunningGenerationSource = GenerationSource & { close(): Promise<void> };

/** The channel the trigger notifies at COMMIT (migration 0022). */
export const GUEST_PAGES_CHANNEL = "guest_pages_changed";

/** A generation moved by hand: what the embedded source counts with, and unit tests' stand-in. */
export function countedGeneration(): GenerationSource & { bump(): void } {
  let generation = 0;
  return {
    current: () => String(generation),
    bump: () => {
      generation += 1;
    },
  };
}

/**
 * Embedded PGlite: one process holds the database (the data folder lock), so the trigger's
 * notification is the whole truth. PGlite hands it over before the committing query's promise
 * settles, so the writer's response never goes out ahead of the new generation.
 */
export async function embeddedGenerationSource(database: Pick<DatabaseHandle, "listen">): Promise<RunningGenerationSource> {
  const counted = countedGeneration();
  const listening = await database.listen(GUEST_PAGES_CHANNEL, { onNotify: counted.bump, onReconnect: counted.bump });
  return { current: counted.current, close: () => listening.close() };
}

/**
 * PostgreSQL, possibly several app processes: the shared sequence, read with
 * one query for every request that arrived while none was under way. A request
 * never takes the answer of a query that started before it arrived (that query
 * may predate a change the client has already seen acknowledged): it waits for
 * the next one. Under load that is one small query per batch of requests.
 *
 * While a writer's transaction is still open the sequence has already moved but its rows are
 * not visible yet: the read answers a generation of its own, so nothing rendered then is reused.
 */
export function sharedGenerationSource(db: Db): RunningGenerationSource {
  let unsettled = 0;
  const read = batched(async () => {
    const result = (await db.execute(sql`select settled_guest_page_generation() as v`)) as unknown as { rows: { v: string | null }[] };
    return result.rows[0]!.v ?? `unsettled-${++unsettled}`;
  });
  return { current: read.next, close: read.settle };
}

/**
 * Calls of `next()` share one run of `run`, but never one that started before they were made:
 * those wait for the next run. Under load, one run per batch of callers.
 */
function batched(run: () => Promise<string>) {
  let inFlight: Promise<string> | null = null;
  let queued: Promise<string> | null = null;
  const start = () => {
    const query = run().finally(() => {
      if (inFlight === query) inFlight = null;
    });
    inFlight = query;
    return query;
  };
  return {
    next(): Promise<string> {
      if (!inFlight) return start();
      queued ??= inFlight.then(
        () => undefined,
        () => undefined,
      ).then(() => {
        queued = null;
        return start();
      });
      return queued;
    },
    settle: async () => {
      await inFlight?.catch(() => undefined);
    },
  };
}

/** A notification on the channel that is one process's barrier, not a change (the trigger's payload is empty). */
const SYNC_PREFIX = "sync:";

/**
 * PostgreSQL, possibly several app processes (ADR 0046): the generation kept in memory, moved by
 * the trigger's notification over this process's LISTEN connection, so a cached page costs no
 * query. Every notification moves it, whatever order the writers' sequence values committed in:
 * a page rendered before a notification arrived is never served after it.
 *
 * A notification reaches the other processes a moment after its commit. `synced()` closes that
 * moment for a request that may follow its sender's own write: it sends a notification of its
 * own and waits for it to come back. PostgreSQL delivers notifications in commit order, so by
 * then this process has received every one committed before the request arrived.
 *
 * While the LISTEN connection is down nothing is delivered: the generation is then read per
 * batch of requests as before (`sharedGenerationSource`), and once listening again it moves, as
 * whatever was committed in between was never announced.
 */
export async function pushedGenerationSource(
  database: Pick<DatabaseHandle, "db" | "listen">,
  { syncTimeoutMs = 1_000 }: { syncTimeoutMs?: number } = {},
): Promise<RunningGenerationSource> {
  const reading = sharedGenerationSource(database.db);
  const self = crypto.randomUUID();
  let moves = 0;
  let listening = true;
  let syncs = 0;
  const waiting = new Map<string, (arrived: boolean) => void>();
  const token = () => `pushed-${moves}`;
  const stopWaiting = () => {
    for (const resolve of waiting.values()) resolve(false);
    waiting.clear();
  };

  const listened = await database.listen(GUEST_PAGES_CHANNEL, {
    onNotify(payload) {
      if (payload.startsWith(SYNC_PREFIX)) waiting.get(payload)?.(true);
      else moves += 1;
    },
    onLost() {
      listening = false;
      moves += 1;
      stopWaiting();
    },
    onReconnect() {
      moves += 1;
      listening = true;
    },
  });

  const sync = batched(async () => {
    if (!listening) return reading.current();
    const id = `${SYNC_PREFIX}${self}:${++syncs}`;
    let timer: NodeJS.Timeout | undefined;
    const arrived = new Promise<boolean>((resolve) => {
      waiting.set(id, resolve);
      timer = setTimeout(() => resolve(false), syncTimeoutMs);
    });
    try {
      await database.db.execute(sql`select pg_notify(${GUEST_PAGES_CHANNEL}, ${id})`);
      // Not back (connection lost, or slow beyond reason): read the shared generation instead.
      return (await arrived) ? token() : await reading.current();
    } finally {
      clearTimeout(timer);
      waiting.delete(id);
    }
  });

  return {
    current: () => (listening ? token() : reading.current()),
    synced: sync.next,
    async close() {
      await listened.close();
      stopWaiting();
      await sync.settle();
      await reading.close();
    },
  };
}
