import { sql } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { DIRECT_SITE } from "#isomorphic/insights-periods";
import type { LinkType } from "#server/platform/db/schema";
import { createRecentVisitors } from "./recent-visitors";

/**
 * Views and link clicks of bio pages, counted in memory and added to the
 * database in batches.
 *
 * A view or click only moves a number in a Map. At least once a second (the
 * job platform's timer), and on shutdown, one transaction adds the batch: `bio_page_views.count += n`,
 * and the per-day rows of `bio_page_daily_views`, `bio_page_daily_referrers`
 * (by referring site) and `bio_page_link_clicks` (UTC days) are upserted with
 * `count = count + n`. Every write is an
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
 * each of its links, per `dedupeWindowMs` (30 minutes), across every process
 * on the database (ADR 0028). The process's memory (recent-visitors.ts) drops
 * repeats without I/O; a first visit in this process waits in the batch as
 * its keyed hash and time, and the flush's transaction first upserts those
 * into `bio_counted_visits`, replacing a row only when it is a window old:
 * only the visits whose row was written (`returning`) are added to the
 * counts, so a network another process counted within the window adds
 * nothing. A retried flush is exact too: a rolled-back one wrote no row, and
 * one that committed but was reported failed finds its own rows, not a window
 * old. Rows older than the window are pruned by a scheduled job
 * (`pruneCountedVisits`). Processes must share `salt` for their keys to meet.
 */
export type ViewCounter = {
  /**
   * `client` is the visitor's address; null counts every call (the server's own callers and tests).
   * `site` is where the visit came from, normalised (referrer-site.ts); "Direct" when left out.
   */
  view(pageId: string, client: string | null, site?: string): void;
  click(pageId: string, linkType: LinkType, client: string | null): void;
  /** How often the job platform flushes it (server/platform/jobs/platform.ts registers it; the counter keeps no timer). */
  readonly flushEveryMs: number;
  /** Writes what waits now; resolves when this flush (and any before it) ended. */
  flush(): Promise<void>;
  close(): Promise<void>;
  stats(): { pendingKeys: number; pendingVisits: number; dropped: number; flushes: number; failures: number; remembered: number };
};

export type ViewCounterOptions = {
  /** How often the job platform flushes it. */
  flushEveryMs?: number;
  maxKeys?: number;
  /** How long a client network's counted view (or click) keeps it from being counted again. */
  dedupeWindowMs?: number;
  /** How many (network, page, view or link) entries are remembered at most. */
  maxRemembered?: number;
  /** Keys the visits' hashes; the same for every process on one database (else each counts its own, as a fresh random one does). */
  visitorSalt?: Uint8Array | string;
  now?: () => number;
  onError?(error: unknown, pendingKeys: number): void;
  /** A batch was written (after failures: the database is back). */
  onFlushed?(): void;
};

/**
 * Thirty minutes, the usual length of one visit in web analytics: reloading or
 * coming back to the page during one visit is one view, a visit later the same
 * day is another, and one client can add at most 48 a day to a page.
 */
export const VIEW_DEDUPE_WINDOW_MS = 30 * 60 * 1000;

// Key parts: page id, UTC day, link type ("" for a view), referring site ("" for a click).
// Ids, types and normalised sites hold none of these separators.
const SEP = "\u0001";

export function createViewCounter(db: Db, options: ViewCounterOptions = {}): ViewCounter {
  const { flushEveryMs = 1_000, maxKeys = 100_000, now = Date.now, dedupeWindowMs = VIEW_DEDUPE_WINDOW_MS } = options;
  const visitors = createRecentVisitors({ windowMs: dedupeWindowMs, maxEntries: options.maxRemembered ?? 200_000, now, salt: options.visitorSalt });
  // Counts that need no check (no client), and first visits in this process, checked at the flush.
  let pending = new Map<string, number>();
  let visits: Visit[] = [];
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

  const visit = (client: string | null, pageId: string, what: string, countKey: string) => {
    if (closed) return;
    if (client === null) return add(countKey, 1);
    const key = visitors.firstVisit(client, pageId, what);
    if (key === null) return;
    if (visits.length < maxKeys) visits.push({ key, at: now(), countKey });
    else dropped += 1;
  };

  function flush(): Promise<void> {
    // One flush at a time, in order.
    inFlight = inFlight.then(write, write);
    return inFlight;
  }

  async function write() {
    if (pending.size === 0 && visits.length === 0) return;
    const batch = pending;
    const batchVisits = visits;
    pending = new Map();
    visits = [];
    try {
      await writeBatch(db, batch, batchVisits, dedupeWindowMs);
      flushes += 1;
      options.onFlushed?.();
    } catch (error) {
      failures += 1;
      for (const [key, n] of batch) add(key, n);
      const waiting = batchVisits.concat(visits);
      visits = waiting.slice(0, maxKeys);
      dropped += waiting.length - visits.length;
      options.onError?.(error, pending.size + visits.length);
    }
  }

  return {
    view(pageId, client, site = DIRECT_SITE) {
      visit(client, pageId, "", `${pageId}${SEP}${today()}${SEP}${SEP}${site}`);
    },
    click(pageId, linkType, client) {
      visit(client, pageId, linkType, `${pageId}${SEP}${today()}${SEP}${linkType}${SEP}`);
    },
    flushEveryMs,
    flush,
    async close() {
      closed = true;
      await flush();
    },
    stats: () => ({ pendingKeys: pending.size, pendingVisits: visits.length, dropped, flushes, failures, remembered: visitors.size() }),
  };
}

/** A first visit in this process: its keyed hash, when, and what it adds to if no process counted it within the window. */
type Visit = { key: string; at: number; countKey: string };

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

type Row = { pageId: string; day: string; linkType: string; site: string; n: number };

/** One transaction: the visits' rows, then totals, days, clicks; each statement's rows in key order. */
async function writeBatch(db: Db, batch: Map<string, number>, visits: Visit[], windowMs: number): Promise<void> {
  await db.transaction(async (tx) => {
    const counts = new Map(batch);
    for (const visit of await admitted(tx, visits, windowMs)) counts.set(visit.countKey, (counts.get(visit.countKey) ?? 0) + 1);
    await addCounts(tx, counts);
  });
}

/**
 * The visits no process counted within the window, now recorded as counted.
 * One key appears at most once per statement (PostgreSQL refuses to update a
 * row twice in one): a key's later visits (a long outage, a forgotten
 * visitor) go in later rounds, which see the earlier rounds' rows.
 */
async function admitted(tx: Tx, visits: Visit[], windowMs: number): Promise<Visit[]> {
  const rounds: Visit[][] = [];
  const seen = new Map<string, number>();
  for (const visit of visits.toSorted((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.at - b.at))) {
    const round = seen.get(visit.key) ?? 0;
    seen.set(visit.key, round + 1);
    (rounds[round] ??= []).push(visit);
  }
  const result: Visit[] = [];
  for (const round of rounds) {
    for (const slice of slices(round, CHUNK)) {
      const values = sql.join(
        slice.map((visit) => sql`(${visit.key}, ${new Date(visit.at).toISOString()}::timestamptz)`),
        sql`, `,
      );
      const written = await tx.execute(sql`
        insert into bio_counted_visits (key, counted_at)
        select v.key, v.at from (values ${values}) as v(key, at)
        order by v.key
        on conflict (key) do update set counted_at = excluded.counted_at
        where bio_counted_visits.counted_at <= excluded.counted_at - make_interval(secs => ${windowMs / 1000}::double precision)
        returning key`);
      const keys = new Set((written as unknown as { rows: Array<{ key: string }> }).rows.map((row) => row.key));
      result.push(...slice.filter((visit) => keys.has(visit.key)));
    }
  }
  return result;
}

async function addCounts(tx: Tx, batch: Map<string, number>): Promise<void> {
  const rows: Row[] = [...batch]
    .map(([key, n]) => {
      const [pageId = "", day = "", linkType = "", site = ""] = key.split(SEP);
      return { pageId, day, linkType, site, n };
    })
    .sort((a, b) => compare(a.pageId, b.pageId) || compare(a.day, b.day) || compare(a.linkType, b.linkType) || compare(a.site, b.site));
  // Views are keyed by site too: one row per referring site, summed per day and per page (in key order still).
  const referrers = rows.filter((row) => row.linkType === "");
  const clicks = rows.filter((row) => row.linkType !== "");
  const totals = new Map<string, number>();
  const daily = new Map<string, Row>();
  for (const row of referrers) {
    totals.set(row.pageId, (totals.get(row.pageId) ?? 0) + row.n);
    const key = `${row.pageId}${SEP}${row.day}`;
    const day = daily.get(key);
    if (day) day.n += row.n;
    else daily.set(key, { ...row, site: "" });
  }
  const views = [...daily.values()];

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
  for (const slice of slices(referrers, CHUNK)) {
    const values = sql.join(
      slice.map((row) => sql`(${row.pageId}, ${row.day}::date, ${row.site}, ${row.n}::int)`),
      sql`, `,
    );
    await tx.execute(sql`
      insert into bio_page_daily_referrers (page_id, day, site, count)
      select v.page_id, v.day, v.site, v.n from (values ${values}) as v(page_id, day, site, n) join bio_pages p on p.id = v.page_id
      order by v.page_id, v.day, v.site
      on conflict (page_id, day, site) do update set count = bio_page_daily_referrers.count + excluded.count`);
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
}

/** Forgets counted visits older than the window (a scheduled job); returns how many. */
export async function pruneCountedVisits(db: Db, now = new Date(), windowMs = VIEW_DEDUPE_WINDOW_MS): Promise<number> {
  // Counted in the database: a busy half hour leaves many rows, none of which Node needs to see.
  const cutoff = new Date(now.getTime() - windowMs).toISOString();
  const result = await db.execute(sql`with gone as (delete from bio_counted_visits where counted_at < ${cutoff}::timestamptz returning 1) select count(*)::int as n from gone`);
  return (result as unknown as { rows: Array<{ n: number }> }).rows[0]!.n;
}

const CHUNK = 5_000;

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function slices<T>(items: T[], size: number): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += size) result.push(items.slice(i, i + size));
  return result;
}
