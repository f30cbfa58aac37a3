import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as schema from "#server/db/schema";
import type { Db } from "#server/db/client";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { guestPagesChanged, localGenerationSource, sharedGenerationSource } from "./generation";

describe("generation in one process (PGlite)", () => {
  it("moves when a guest page's data changes", async () => {
    const source = localGenerationSource();
    const before = source.current();
    await guestPagesChanged(null as never);
    expect(source.current()).not.toBe(before);
  });
});

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
      const writer = sharedGenerationSource(database.db);
      const reader = sharedGenerationSource(other);
      const before = await reader.current();
      const readerSide = before.split("/")[1];
      await guestPagesChanged(database.db);
      const after = await reader.current();
      expect(after.split("/")[1]).not.toBe(readerSide);
      expect(await writer.current()).toMatch(/\/\d+:true$/);
    });

    it("a read asked for while another is under way waits for a query that starts after it", async () => {
      const reader = sharedGenerationSource(other);
      const first = reader.current(); // under way
      await guestPagesChanged(database.db); // a change acknowledged while it runs
      const second = reader.current();
      const [a, b] = await Promise.all([first, second]);
      // Whatever the first saw, the second was read after the change.
      expect(b).toBe(await sharedGenerationSource(other).current());
      expect(Number(b.split("/")[1]!.split(":")[0])).toBeGreaterThanOrEqual(Number(a.split("/")[1]!.split(":")[0]));
    });
  });
}
