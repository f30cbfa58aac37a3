import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openPglite } from "./client";

describe("openPglite", () => {
  it("keeps PGlite's shared buffers at 32 MB, not PostgreSQL's 128 MB, to hold its resident memory down", async () => {
    const database = await openPglite(null);
    try {
      const result = (await database.db.execute(sql`show shared_buffers`)) as unknown as { rows: { shared_buffers: string }[] };
      expect(result.rows[0]?.shared_buffers).toBe("32MB");
    } finally {
      await database.close();
    }
  });
});
