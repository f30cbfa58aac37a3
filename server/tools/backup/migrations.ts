import { readMigrationFiles } from "drizzle-orm/migrator";
import fs from "node:fs";
import path from "node:path";
import { PRODUCT_MIGRATIONS, type MigrationChain } from "#server/platform/db/migrate";
import { providerMigrations } from "#server/providers/payments/choose-provider";

/** The newest migration a database recorded for one chain: how many, and which (the journal's tag when this code knows it). */
export type MigrationState = { count: number; lastMillis: number; lastTag: string | null };

export type Query = (text: string) => Promise<Array<Record<string, unknown>>>;

/** Every chain a Sponsorgrid database may hold; the sandbox's is there only when the sandbox was the provider. */
export const CHAINS: readonly MigrationChain[] = [PRODUCT_MIGRATIONS, ...providerMigrations({ PAYMENT_PROVIDER: "sandbox" })];

function journal(chain: MigrationChain): Array<{ when: number; tag: string }> {
  const file = path.join(chain.folder, "meta", "_journal.json");
  return (JSON.parse(fs.readFileSync(file, "utf8")) as { entries: Array<{ when: number; tag: string }> }).entries;
}

/** What the database recorded, per chain table. */
export async function migrationStates(query: Query): Promise<Record<string, MigrationState | null>> {
  const states: Record<string, MigrationState | null> = {};
  for (const chain of CHAINS) {
    const table = `drizzle.${chain.table}`;
    const [exists] = await query(`select to_regclass('${table}') is not null as present`);
    if (!exists?.present) {
      states[chain.table] = null;
      continue;
    }
    const [row] = await query(`select count(*)::int as count, coalesce(max(created_at), 0)::text as last from ${table}`);
    const lastMillis = Number(row?.last ?? 0);
    const count = Number(row?.count ?? 0);
    states[chain.table] = count === 0 ? null : { count, lastMillis, lastTag: journal(chain).find((entry) => entry.when === lastMillis)?.tag ?? null };
  }
  return states;
}

export type MigrationVerdict = { newer: string[]; older: string[] };

/**
 * Compares a backup's migrations with this code's: a chain the backup has past this code's last
 * migration means the backup was made by a newer release (its tables may not be what this code
 * reads); one behind means the next start migrates it forward, as any upgrade does.
 */
export function compareMigrations(recorded: Record<string, MigrationState | null>): MigrationVerdict {
  const verdict: MigrationVerdict = { newer: [], older: [] };
  for (const chain of CHAINS) {
    const state = recorded[chain.table];
    if (!state) continue;
    const files = readMigrationFiles({ migrationsFolder: chain.folder });
    const codeLast = files.at(-1)?.folderMillis ?? 0;
    const known = journal(chain);
    const label = state.lastTag ?? `a migration from ${new Date(state.lastMillis).toISOString()}`;
    if (state.lastMillis > codeLast || !known.some((entry) => entry.when === state.lastMillis)) {
      verdict.newer.push(`${chain.table}: the backup's last migration is ${label}, this code's is ${known.at(-1)?.tag ?? "none"}`);
    } else if (state.count < files.length) {
      verdict.older.push(`${chain.table}: ${files.length - state.count} migration(s) after ${label}`);
    }
  }
  return verdict;
}
