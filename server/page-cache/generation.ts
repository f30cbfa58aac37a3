import { sql } from "drizzle-orm";
import type { Db, DatabaseHandle } from "#server/db/client";

/**
 * Which version of the marketplace data a cached guest page shows.
 *
 * Every write to a row a guest page shows (a post, a heart, a bio page, a disabled account…)
 * moves the sequence `guest_page_generation`, from a database trigger (migration 0022), so no
 * writer can forget to. A cached page is served only when the generation it was rendered at is
 * still the current one, read after the request arrived: so the request after a change — to
 * this process or any other — never sees the page from before it.
 */
export type GenerationSource = {
  /** The current generation, read after this call was made. */
  current(): Promise<string> | string;
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
  const read = async () => {
    const result = (await db.execute(sql`select settled_guest_page_generation() as v`)) as unknown as { rows: { v: string | null }[] };
    return result.rows[0]!.v ?? `unsettled-${++unsettled}`;
  };
  let inFlight: Promise<string> | null = null;
  let queued: Promise<string> | null = null;
  const start = () => {
    const query = read().finally(() => {
      if (inFlight === query) inFlight = null;
    });
    inFlight = query;
    return query;
  };
  return {
    current() {
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
    close: async () => {
      await inFlight?.catch(() => undefined);
    },
  };
}
