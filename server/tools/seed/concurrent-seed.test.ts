import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { user } from "#server/platform/db/schema";
import { DEMO_ACCOUNTS } from "./demo-accounts";
import { seedDatabase } from "./index";

describe.each(ENGINES)("processes starting together on one new %s database", (engine) => {
  const database = migratedDatabase(engine);

  it("seed in turn: every start succeeds and the demo data goes in exactly once", async () => {
    // On PostgreSQL each call holds its own pool connection, as two app processes would.
    const results = await Promise.all([1, 2, 3].map(() => seedDatabase(database.db)));
    expect(results.filter((result) => result.demoAdded)).toHaveLength(1);
    expect(await database.db.select({ id: user.id }).from(user).where(eq(user.id, DEMO_ACCOUNTS.creator.id))).toHaveLength(1);
  });
});
