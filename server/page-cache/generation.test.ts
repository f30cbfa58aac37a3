import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as schema from "#server/db/schema";
import type { Db } from "#server/db/client";
import { createEmptyDatabase, ENGINES, migratedDatabase, type TestDatabase } from "#tests/support/databases";
import { countedGeneration, sharedGenerationSource, type RunningGenerationSource } from "./generation";
import { startGenerationSource } from "./setup";

// Every table whose rows a guest page shows, with a write that touches no row: the trigger is per
// statement, so even that moves the generation, and no domain function is involved.
const WATCHED_WRITES: Record<string, string> = {
  opportunity_posts: `update opportunity_posts set title = title where false`,
  hearts: `delete from hearts where false`,
  totals: `update totals set total = total where false`,
  tags: `update tags set name = name where false`,
  bio_pages: `delete from bio_pages where false`,
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
    beforeAll(async () => {
      database = await createEmptyDatabase(engine);
      await database.migrate();
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
        expect(await source.current()).not.toBe(before);
      });
    }

    it("a write inside a transaction moves it by the time the transaction has committed", async () => {
      const before = await source.current();
      await database.db.transaction(async (tx) => {
        await tx.execute(sql.raw(WATCHED_WRITES.hearts!));
        await tx.execute(sql.raw(WATCHED_WRITES.totals!));
      });
      expect(await source.current()).not.toBe(before);
    });

    for (const [what, write] of Object.entries(UNWATCHED_WRITES)) {
      it(`a write to ${what} leaves it`, async () => {
        const before = await source.current();
        await database.db.execute(sql.raw(write));
        expect(await source.current()).toBe(before);
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
