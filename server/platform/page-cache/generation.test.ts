import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as schema from "#server/platform/db/schema";
import type { Db } from "#server/platform/db/client";
import { createMigratedDatabase, ENGINES, migratedDatabase, type TestDatabase } from "#tests/support/databases";
import { openPostgres, type DatabaseHandle } from "#server/platform/db/client";
import { countedGeneration, pushedGenerationSource, sharedGenerationSource, type RunningGenerationSource } from "./generation";
import { startGenerationSource } from "./setup";

// Every table whose rows a guest page shows, with a write that touches no row: the trigger is per
// statement, so even that moves the generation, and no domain function is involved.
const WATCHED_WRITES: Record<string, string> = {
  opportunity_posts: `update opportunity_posts set title = title where false`,
  hearts: `delete from hearts where false`,
  totals: `update totals set total = total where false`,
  tags: `update tags set name = name where false`,
  bio_pages: `delete from bio_pages where false`,
  "bio_packages (a page's Work with me packages)": `update bio_packages set title = title where false`,
  "profiles (payments on or off)": `update profiles set payments_enabled = payments_enabled where false`,
  "user (disabled)": `update "user" set disabled = disabled where false`,
  "user (deleted)": `delete from "user" where false`,
  "ledger_entries (a payment, refund or dispute: wall and goal)": `delete from ledger_entries where false`,
  "sponsor_sessions (hidden from the wall)": `update sponsor_sessions set hidden_from_wall = hidden_from_wall where false`,
};
// Writes guest pages never show: they leave the cached pages alone.
const UNWATCHED_WRITES: Record<string, string> = {
  "bio page views": `update bio_page_views set count = count where false`,
  "rate limits": `delete from rate_limits where false`,
  "profiles (user type)": `update profiles set user_type = user_type where false`,
  "user (name)": `update "user" set name = name where false`,
  "sponsor sessions (a checkout's status)": `update sponsor_sessions set status = status where false`,
};

describe("the count of unit-test generations", () => {
  it("moves when bumped", () => {
    const counted = countedGeneration();
    const before = counted.current();
    counted.bump();
    expect(counted.current()).not.toBe(before);
  });
});

for (const engine of ENGINES) {
  describe(`guest page generation moved by the database itself (${engine})`, () => {
    let database: TestDatabase;
    let source: RunningGenerationSource;
    // What a request that may follow its sender's own write reads (on PGlite, the same as current()).
    const synced = () => (source.synced ?? source.current)();
    beforeAll(async () => {
      database = await createMigratedDatabase(engine);
      source = await startGenerationSource(database);
    });
    afterAll(async () => {
      await source?.close();
      await database?.dispose();
    });

    for (const [table, write] of Object.entries(WATCHED_WRITES)) {
      it(`a write to ${table} moves it, with no call from the writer`, async () => {
        const before = await source.current();
        await database.db.execute(sql.raw(write));
        expect(await synced()).not.toBe(before);
      });
    }

    it("a write inside a transaction moves it by the time the transaction has committed", async () => {
      const before = await source.current();
      await database.db.transaction(async (tx) => {
        await tx.execute(sql.raw(WATCHED_WRITES.hearts!));
        await tx.execute(sql.raw(WATCHED_WRITES.totals!));
      });
      expect(await synced()).not.toBe(before);
    });

    for (const [what, write] of Object.entries(UNWATCHED_WRITES)) {
      it(`a write to ${what} leaves it`, async () => {
        const before = await source.current();
        await database.db.execute(sql.raw(write));
        expect(await synced()).toBe(before);
      });
    }
  });
}

if (ENGINES.includes("postgres")) {
  describe("generation shared by app processes on one PostgreSQL database", () => {
    const database = migratedDatabase("postgres");
    // A second connection pool to the same database stands for a second app process.
    let otherPool: pg.Pool;
    let other: Db;
    beforeAll(async () => {
      const { rows } = (await database.db.execute("select current_database() as name")) as unknown as { rows: { name: string }[] };
      const url = new URL(process.env.DATABASE_URL!);
      url.pathname = `/${rows[0]!.name}`;
      otherPool = new pg.Pool({ connectionString: url.toString(), max: 2 });
      other = drizzle({ client: otherPool, schema, casing: "snake_case" }) as unknown as Db;
    });
    afterAll(() => otherPool?.end());

    it("a change made through one process is seen by the other's next read", async () => {
      const reader = sharedGenerationSource(other);
      const before = await reader.current();
      await database.db.execute(sql.raw(WATCHED_WRITES.opportunity_posts!));
      const after = await reader.current();
      expect(after).not.toBe(before);
      expect(after).toMatch(/^\d+:true$/);
    });

    it("while a writer's transaction is open, no generation is settled: nothing rendered then is reused", async () => {
      const reader = sharedGenerationSource(other);
      const before = await reader.current();
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let written!: () => void;
      const wrote = new Promise<void>((resolve) => (written = resolve));
      const writer = database.db.transaction(async (tx) => {
        await tx.execute(sql.raw(WATCHED_WRITES.hearts!));
        written();
        await released;
      });
      await wrote;
      const during = [await reader.current(), await reader.current()];
      expect(during[0]).toMatch(/^unsettled-/);
      expect(during[1]).not.toBe(during[0]);
      release();
      await writer;
      const after = await reader.current();
      expect(after).toMatch(/^\d+:true$/);
      expect(after).not.toBe(before);
    });

    it("a read asked for while another is under way waits for a query that starts after it", async () => {
      const reader = sharedGenerationSource(other);
      const first = reader.current(); // under way
      await database.db.execute(sql.raw(WATCHED_WRITES.hearts!)); // a change acknowledged while it runs
      const second = reader.current();
      const [a, b] = await Promise.all([first, second]);
      // Whatever the first saw, the second was read after the change.
      expect(b).toBe(await sharedGenerationSource(other).current());
      expect(Number(b.split(":")[0])).toBeGreaterThanOrEqual(Number(a.split(":")[0]));
    });
  });
}

if (ENGINES.includes("postgres")) {
  describe("generation pushed to app processes on one PostgreSQL database", () => {
    const database = migratedDatabase("postgres");
    // Two handles on one database, each with its own pool and LISTEN connection: two app processes.
    let a: DatabaseHandle;
    let b: DatabaseHandle;
    let sourceA: RunningGenerationSource;
    let sourceB: RunningGenerationSource;
    let name: string;
    beforeAll(async () => {
      const { rows } = (await database.db.execute("select current_database() as name")) as unknown as { rows: { name: string }[] };
      name = rows[0]!.name;
      const url = new URL(process.env.DATABASE_URL!);
      url.pathname = `/${name}`;
      [a, b] = await Promise.all([openPostgres(url.toString()), openPostgres(url.toString())]);
      [sourceA, sourceB] = await Promise.all([pushedGenerationSource(a), pushedGenerationSource(b)]);
    });
    afterAll(async () => {
      await Promise.all([sourceA?.close(), sourceB?.close()]);
      await Promise.all([a?.close(), b?.close()]);
    });

    it("is read in memory: a cached page costs no query", () => {
      expect(typeof sourceB.current()).toBe("string");
    });

    it("a write committed through one process: the other's synced read, made at once, is already past it", async () => {
      for (let round = 0; round < 20; round += 1) {
        const before = sourceB.current();
        await a.db.execute(sql.raw(WATCHED_WRITES.bio_pages!));
        // No wait of any kind: this is the owner's next request, answered by the other process.
        expect(await sourceB.synced!()).not.toBe(before);
      }
    });

    it("reaches the other process's plain read too, a moment after the commit", async () => {
      const before = sourceB.current();
      await a.db.execute(sql.raw(WATCHED_WRITES.opportunity_posts!));
      await vi.waitFor(() => expect(sourceB.current()).not.toBe(before), { timeout: 2_000, interval: 5 });
    });

    it("a synced read with no change in between leaves the generation (pages stay cached)", async () => {
      const before = sourceB.current();
      await sourceA.synced!();
      expect(await sourceB.synced!()).toBe(before);
      expect(sourceB.current()).toBe(before);
    });

    it("two writers committing out of their sequence order each move it: nothing rendered between their commits survives", async () => {
      let releaseFirst!: () => void;
      const firstMayCommit = new Promise<void>((resolve) => (releaseFirst = resolve));
      let firstWrote!: () => void;
      const wrote = new Promise<void>((resolve) => (firstWrote = resolve));
      // The first takes the lower sequence value but commits last.
      const first = a.db.transaction(async (tx) => {
        await tx.execute(sql.raw(WATCHED_WRITES.hearts!));
        firstWrote();
        await firstMayCommit;
      });
      await wrote;
      await b.db.execute(sql.raw(WATCHED_WRITES.totals!));
      const betweenCommits = await sourceB.synced!();
      releaseFirst();
      await first;
      expect(await sourceB.synced!()).not.toBe(betweenCommits);
    });

    it("while its LISTEN connection is down it reads the generation per batch, and moves once listening again", async () => {
      const before = sourceB.current() as string;
      const admin = new pg.Client({ connectionString: process.env.DATABASE_URL! });
      await admin.connect();
      try {
        // As a server restart or failover would: both processes' LISTEN connections end.
        await admin.query(
          `select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and application_name = 'listen:guest_pages_changed'`,
          [name],
        );
      } finally {
        await admin.end();
      }
      await vi.waitFor(() => expect(sourceB.current()).toBeInstanceOf(Promise), { timeout: 2_000, interval: 5 });
      // In the gap: a write through A is seen by B's very next read, as the shared read did.
      const inGap = await sourceB.current();
      await a.db.execute(sql.raw(WATCHED_WRITES.tags!));
      expect(await sourceB.current()).not.toBe(inGap);
      // Listening again (first retry after 100 ms): in memory, and not the generation from before the gap.
      await vi.waitFor(() => expect(typeof sourceB.current()).toBe("string"), { timeout: 5_000, interval: 20 });
      expect(sourceB.current()).not.toBe(before);
      await vi.waitFor(() => expect(typeof sourceA.current()).toBe("string"), { timeout: 5_000, interval: 20 });
      const after = sourceB.current();
      await a.db.execute(sql.raw(WATCHED_WRITES.tags!));
      expect(await sourceB.synced!()).not.toBe(after);
    });
  });
}
