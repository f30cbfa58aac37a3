import { sql, type SQL } from "drizzle-orm";
import type { TestDb } from "./databases";

/**
 * The plan the database chooses for `query`, with sequential scans forbidden: tiny test tables make
 * them cheapest, so this shows which index would serve the query at scale.
 */
export async function planOf(database: TestDb, query: SQL): Promise<string> {
  let plan = "";
  await database.db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_seqscan = off`);
    const result = (await tx.execute(sql`explain ${query}`)) as unknown as { rows: Record<string, string>[] };
    plan = result.rows.map((row) => row["QUERY PLAN"]).join("\n");
  });
  return plan;
}
