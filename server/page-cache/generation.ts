import { sql } from "drizzle-orm";
import type { Db } from "#server/db/client";

/**
 * Which version of the marketplace data a cached guest page shows.
 *
 * A change (post created, edited, deleted, a heart) calls `guestPagesChanged`
 * after its transaction has committed and before its response goes out. That
 * moves this process's counter and, on PostgreSQL, the shared sequence
 * `guest_page_generation` that every app process reads. A cached page is
 * served only when the generation it was rendered at is still the current
 * one, read after the request arrived: so the request after a change — to
 * this process or any other — never sees the page from before it.
 */
export type GenerationSource = {
  /** The current generation, read after this call was made. */
  current(): Promise<string> | string;
};

let localGeneration = 0;
// Shared counters of the PostgreSQL databases app processes in this Node process serve.
const sharedBumps = new WeakMap<Db, () => Promise<unknown>>();

/** Call after every committed write that a guest page may show. */
export async function guestPagesChanged(db: Db): Promise<void> {
  localGeneration += 1;
  await sharedBumps.get(db)?.();
}

/** Embedded PGlite: one process holds the database, so its own counter is the whole truth. */
export function localGenerationSource(): GenerationSource {
  return { current: () => String(localGeneration) };
}

/**
 * PostgreSQL, possibly several app processes: the shared sequence, read with
 * one query for every request that arrived while none was under way. A request
 * never takes the answer of a query that started before it arrived (that query
 * may predate a change the client has already seen acknowledged): it waits for
 * the next one. Under load that is one small query per batch of requests.
 */
export function sharedGenerationSource(db: Db): GenerationSource {
  sharedBumps.set(db, () => db.execute(sql`select nextval('guest_page_generation')`));
  const read = async () => {
    const result = (await db.execute(sql`select last_value::text || ':' || is_called::text as v from guest_page_generation`)) as unknown as {
      rows: { v: string }[];
    };
    return `${localGeneration}/${result.rows[0]!.v}`;
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
  };
}
