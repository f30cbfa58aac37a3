import { eq } from "drizzle-orm";
import pino from "pino";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { logs, user } from "#server/platform/db/schema";
import { logTagSearch } from "#server/domains/opportunities/read";
import { createJobPlatform } from "#server/platform/jobs/platform";
import { createSearchLog, MAX_TERM_CHARS } from "./search-log";

describe.each(ENGINES)("search log on %s", (engine) => {
  const database = migratedDatabase(engine);
  const searchRows = async () =>
    (await database.db.select().from(logs).where(eq(logs.description, "search"))).map((r) => ({
      uid: r.uid,
      subtype: r.subtype,
      type: r.type,
      collection: r.collection,
      count: r.count,
    }));
  const sorted = <T extends { subtype: string | null; uid: string | null }>(rows: T[]) =>
    rows.sort((a, b) => `${a.uid}|${a.subtype}`.localeCompare(`${b.uid}|${b.subtype}`));

  beforeAll(async () => {
    await database.db.insert(user).values([
      { id: "searcher-1", name: "One", email: "one@search.example" },
      { id: "searcher-2", name: "Two", email: "two@search.example" },
    ]);
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await database.db.delete(logs);
  });

  it("writes many searches as one INSERT with a count per (uid, term)", async () => {
    const inserts = vi.spyOn(database.db, "insert");
    const searchLog = createSearchLog(database.db);
    for (let i = 0; i < 300; i++) logTagSearch(searchLog, null, ["music", "podcast sponsorship"]);
    for (let i = 0; i < 40; i++) logTagSearch(searchLog, "searcher-1", ["music"]);
    logTagSearch(searchLog, "searcher-2", ["gaming", "music"]);
    expect(await searchRows()).toEqual([]); // nothing written yet: the page view didn't wait on the log

    await searchLog.flush();
    expect(inserts).toHaveBeenCalledTimes(1);
    const row = (uid: string | null, subtype: string, count: number) => ({ uid, subtype, type: "search", collection: "opportunity_posts", count });
    expect(sorted(await searchRows())).toEqual(
      sorted([
        row(null, "tag_music", 300),
        row(null, "tag_podcast sponsorship", 300),
        row("searcher-1", "tag_music", 40),
        row("searcher-2", "tag_gaming", 1),
        row("searcher-2", "tag_music", 1),
      ]),
    );
    await searchLog.close();
  });

  it("holds at most maxKeys distinct searches, counts what it drops and reports it", async () => {
    const onDropped = vi.fn();
    const log = createSearchLog(database.db, { maxKeys: 3, flushAtKeys: 100, onDropped });
    log.record(null, "opportunity_posts", ["tag_a", "tag_b", "tag_c", "tag_d", "tag_e"]);
    log.record(null, "opportunity_posts", ["tag_a"]); // a waiting key still counts
    expect(log.stats()).toMatchObject({ pendingKeys: 3, dropped: 2 });
    await log.close();
    expect(onDropped).toHaveBeenCalledWith(2);
    expect(sorted(await searchRows()).map((r) => [r.subtype, r.count])).toEqual([["tag_a", 2], ["tag_b", 1], ["tag_c", 1]]);
  });

  it("flushes early once enough distinct keys wait, and on its timer", async () => {
    const early = createSearchLog(database.db, { flushAtKeys: 2, flushEveryMs: 60_000 });
    early.record(null, "opportunity_posts", ["tag_x", "tag_y"]);
    await vi.waitFor(async () => expect((await searchRows()).length).toBe(2));
    await early.close();

    // The timer is the job platform's: registered there, the log is flushed every flushEveryMs.
    const jobs = createJobPlatform({ db: database.db, logger: pino({ level: "silent" }) });
    const timed = jobs.flush("search log", createSearchLog(database.db, { flushEveryMs: 50 }));
    timed.record("searcher-1", "opportunity_posts", ["tag_z"]);
    await vi.waitFor(async () => expect((await searchRows()).map((r) => r.subtype)).toContain("tag_z"));
    // Closing the platform writes what waits.
    timed.record("searcher-1", "opportunity_posts", ["tag_on_close"]);
    await jobs.close();
    expect((await searchRows()).map((r) => r.subtype)).toContain("tag_on_close");
  });

  it("writes what waits on close and ignores searches after it", async () => {
    const log = createSearchLog(database.db, { flushEveryMs: 60_000 });
    log.record(null, "opportunity_posts", ["tag_last"]);
    await log.close();
    log.record(null, "opportunity_posts", ["tag_after"]);
    await log.flush();
    expect((await searchRows()).map((r) => r.subtype)).toEqual(["tag_last"]);
  });

  it("caps terms, strips NUL, and keeps the counts when an account is gone before the flush", async () => {
    const log = createSearchLog(database.db, { flushEveryMs: 60_000 });
    log.record("no-such-account", "opportunity_posts", [`name_${"x".repeat(5_000)}\0`]);
    await log.close();
    const [row] = await searchRows();
    expect(row).toMatchObject({ uid: null, count: 1 });
    expect(row!.subtype!.length).toBe(MAX_TERM_CHARS);
    expect(row!.subtype).not.toContain("\0");
  });
});
