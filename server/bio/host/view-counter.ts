import { sql } from "drizzle-orm";
import type { Db } from "#server/db/client";
import type { LinkType } from "#server/db/schema";
import { createRecentVisitors } from "./recent-visitors";

/**
 * Views and link clicks of bio pages, counted in memory and added to the
 * database in batches.
 *
 * A view or click only moves a number in a Map. At least once a second, and
 * on shutdown, one transaction adds the batch: `bio_page_views.count += n`,
 * and the per-day rows of `bio_page_daily_views` and `bio_page_link_clicks`
 * (UTC days) are upserted with `count = count + n`. Every write is an
 * increment, never a read-modify-write in Node, so any number of processes on
 * one PostgreSQL add their batches without losing or doubling a view; rows
 * are written in key order so concurrent flushes lock them in the same order.
 *
 * A flush that fails (database away, a deadlock) changes nothing (one
 * transaction) and its counts go back into the batch for the next try. A page
 * deleted in the meantime has no row to add to: its counts are left out by
 * the join on `bio_pages` (and a delete racing the flush fails it once; the
 * retry leaves them out). The batch is bounded: past `maxKeys` distinct keys,
 * new ones are dropped and counted in `stats().dropped`.
 *
 * What a crash (SIGKILL, power loss) can lose: the counts since the last
 * flush, at most about one second's worth. SIGINT/SIGTERM flush first.
 *
 * One client network counts at most one view of a page, and one click of
 * each of its links, per `dedupeWindowMs` (30 minutes; server/bio/host/recent-visitors.ts,
 * which also says what several processes mean for it).
 */
export type ViewCounter = {
  /** `client` is the visitor's address; null counts every call (the server's own callers and tests). */
  view(pageId: string, client: string | null): void;
  click(pageId: string, linkType: LinkType, client: string | null): void;
  /** Writes what waits now; resolves when this flush (and any before it) ended. */
  flush(): Promise<void>;
  close(): Promise<void>;
  stats(): { pendingKeys: number; dropped: number; flushes: number; failures: number; remembered: number };
};

export type ViewCounterOptions = {
  flushEveryMs?: number;
  maxKeys?: number;
  /** How long a client network's counted view (or click) keeps it from being counted again. */
  dedupeWindowMs?: number;
  /** How many (network, page, view or link) entries are remembered at most. */
  maxRemembered?: number;
  now?: () => number;
  onError?(error: unknown, pendingKeys: number): void;
};

/**
 * Thirty minutes, the usual length of one visit in web analytics: reloading or
 * coming back to the page during one visit is one view, a visit later the same
 * day is another, and one client can add at most 48 a day to a page.
 */
export const VIEW_DEDUPE_WINDOW_MS = 30 * 60 * 1000;

// Key parts: page id, UTC day, link type ("" for a view). Ids and types hold none of these separators.
const SEP = "\u0001";

export function createViewCounter(db: Db, options: ViewCounterOptions = {}): ViewCounter {
  const { flushEveryMs = 1_000, maxKeys = 100_000, now = Date.now } = options;
  const visitors = createRecentVisitors({ windowMs: options.dedupeWindowMs ?? VIEW_DEDUPE_WINDOW_MS, maxEntries: options.maxRemembered ?? 200_000, now });
  let pending = new Map<string, number>();
  let dropped = 0;
  let flushes = 0;
  let failures = 0;
  let closed = false;
  let inFlight: Promise<void> = Promise.resolve();

  // The UTC day, recomputed only when it can have changed.
  let day = "";
  let dayEndsAt = 0;
  const today = () => {
    const time = now();
    if (time >= dayEndsAt) {
      day = new Date(time).toISOString().slice(0, 10);
      dayEndsAt = Date.parse(`${day}T00:00:00Z`) + 86_400_000;
    }
    return day;
  };

  const add = (key: string, n: number) => {
    const count = pending.get(key);
    if (count !== undefined) pending.set(key, count + n);
    else if (pending.size < maxKeys) pending.set(key, n);
    else dropped += n;
  };

  const timer = setInterval(() => void flush(), flushEveryMs);
  // A waiting flush must not keep a finished process (or a test run) alive.
  timer.unref();

  function flush(): Promise<void> {
    // One flush at a time, in order.
    inFlight = inFlight.then(write, write);
    return inFlight;
  }

  async function write() {
    if (pending.size === 0) return;
    const batch = pending;
    pending = new Map();
    try {
      await writeBatch(db, batch);
      flushes += 1;
    } catch (error) {
      failures += 1;
      for (const [key, n] of batch) add(key, n);
      options.onError?.(error, pending.size);
    }
  }

  return {
    view(pageId, client) {
      if (closed || (client !== null && !visitors.firstVisit(client, pageId, ""))) return;
      add(`${pageId}${SEP}${today()}${SEP}`, 1);
    },
    click(pageId, linkType, client) {
      if (closed || (client !== null && !visitors.firstVisit(client, pageId, linkType))) return;
      add(`${pageId}${SEP}${today()}${SEP}${linkType}`, 1);
    },
    flush,
    async close() {
      closed = true;
      clearInterval(timer);
      await flush();
    },
    stats: () => ({ pendingKeys: pending.size, dropped, flushes, failures, remembered: visitors.size() }),
  };
}

type Row = { pageId: string; day: string; linkType: string; n: number };

/** One transaction: totals, days, clicks; each statement's rows in key order. */
async function writeBatch(db: Db, batch: Map<string, number>): Promise<void> {
  const rows: Row[] = [...batch]
    .map(([key, n]) => {
      const [pageId = "", day = "", linkType = ""] = key.split(SEP);
      return { pageId, day, linkType, n };
    })
    .sort((a, b) => (a.pageId < b.pageId ? -1 : a.pageId > b.pageId ? 1 : a.day < b.day ? -1 : a.day > b.day ? 1 : a.linkType < b.linkType ? -1 : 1));
  const views = rows.filter((row) => row.linkType === "");
  const clicks = rows.filter((row) => row.linkType !== "");
  const totals = new Map<string, number>();
  for (const row of views) totals.set(row.pageId, (totals.get(row.pageId) ?? 0) + row.n);

  await db.transaction(async (tx) => {
    // PostgreSQL takes at most 65,535 parameters per statement: a long batch goes in slices.
    for (const slice of slices([...totals], CHUNK)) {
      const values = sql.join(
        slice.map(([pageId, n]) => sql`(${pageId}, ${n}::bigint)`),
        sql`, `,
      );
      await tx.execute(sql`
        insert into bio_page_views (page_id, uid, count)
        select v.page_id, p.uid, v.n from (values ${values}) as v(page_id, n) join bio_pages p on p.id = v.page_id
        order by v.page_id
        on conflict (page_id) do update set count = bio_page_views.count + excluded.count`);
    }
    for (const slice of slices(views, CHUNK)) {
      const values = sql.join(
        slice.map((row) => sql`(${row.pageId}, ${row.day}::date, ${row.n}::int)`),
        sql`, `,
      );
      await tx.execute(sql`
        insert into bio_page_daily_views (page_id, day, count)
        select v.page_id, v.day, v.n from (values ${values}) as v(page_id, day, n) join bio_pages p on p.id = v.page_id
        order by v.page_id, v.day
        on conflict (page_id, day) do update set count = bio_page_daily_views.count + excluded.count`);
    }
    for (const slice of slices(clicks, CHUNK)) {
      const values = sql.join(
        slice.map((row) => sql`(${row.pageId}, ${row.linkType}, ${row.day}::date, ${row.n}::int)`),
        sql`, `,
      );
      await tx.execute(sql`
        insert into bio_page_link_clicks (page_id, link_type, day, count)
        select v.page_id, v.link_type, v.day, v.n from (values ${values}) as v(page_id, link_type, day, n) join bio_pages p on p.id = v.page_id
        order by v.page_id, v.link_type, v.day
        on conflict (page_id, link_type, day) do update set count = bio_page_link_clicks.count + excluded.count`);
    }
  });
}

const CHUNK = 5_000;

function slices<T>(items: T[], size: number): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += size) result.push(items.slice(i, i + size));
  return result;
}
