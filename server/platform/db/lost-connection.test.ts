import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgres } from "#server/platform/db/client";
import { isDatabaseUnavailable } from "#server/platform/db/unavailable";
import { createMigratedDatabase, type TestDatabase } from "#tests/support/databases";
import { startTcpRelay, throughRelay, type TcpRelay } from "#tests/support/tcp-relay";

/**
 * A PostgreSQL connection cut while a transaction holds it (a restart, a failover, a network
 * fault): the transaction fails as an outage, the process lives on, and the pool serves again once
 * the database is back. pg emits 'error' on a checked-out client, which nothing else listens to.
 */
describe.skipIf(!process.env.DATABASE_URL)("a connection lost in the middle of a transaction", () => {
  let database: TestDatabase;
  let relay: TcpRelay;

  beforeAll(async () => {
    database = await createMigratedDatabase("postgres");
    const url = new URL(database.url!);
    relay = await startTcpRelay({ host: url.hostname, port: Number(url.port || 5432) });
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it("fails that transaction as an outage, crashes nothing, and the pool works once the database is back", async () => {
    const idleErrors: Error[] = [];
    const relayed = await openPostgres(throughRelay(database.url!, relay), { onIdleClientError: (error) => idleErrors.push(error) });
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on("uncaughtException", onUncaught);
    try {
      const transaction = relayed.db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        await relay.cut();
        // Between statements, as a transaction waits on other work: the socket's end arrives now.
        await new Promise((resolve) => setTimeout(resolve, 200));
        await tx.execute(sql`select 2`);
      });
      const failure = await transaction.then(() => null, (error: unknown) => error);
      expect(failure, "the transaction went through a cut connection").not.toBeNull();
      expect(isDatabaseUnavailable(failure)).toBe(true);
      expect(uncaught).toEqual([]);

      await relay.restore();
      const after = (await relayed.db.execute(sql`select 41 + 1 as answer`)) as unknown as { rows: { answer: number }[] };
      expect(after.rows[0]?.answer).toBe(42);
    } finally {
      process.off("uncaughtException", onUncaught);
      await relayed.close();
    }
  });
});
