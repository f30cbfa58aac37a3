import type { Config } from "#server/platform/config";
import { openPglite, openPostgres, type DatabaseHandle, type DatabaseObserver } from "./client";
import { acquireDataDirLock } from "./lock";

/** A database opened as the configuration says, and how to let it go. */
export type OpenedDatabase = {
  database: DatabaseHandle;
  /** Closes the database, then gives up the data folder's lock (PGlite only). */
  close(): Promise<void>;
};

/**
 * PostgreSQL at DATABASE_URL, or else PGlite in DATA_DIR under the folder's
 * lock, so that two processes never open one embedded database. Shared by the
 * server's start and `npm run seed`.
 */
export async function openConfiguredDatabase(
  config: Pick<Config, "DATABASE_URL" | "DATA_DIR">,
  options: { onIdleClientError?: (error: Error) => void } & DatabaseObserver = {},
): Promise<OpenedDatabase> {
  if (config.DATABASE_URL) {
    const database = await openPostgres(config.DATABASE_URL, options);
    return { database, close: () => database.close() };
  }
  const lock = acquireDataDirLock(config.DATA_DIR);
  let database: DatabaseHandle;
  try {
    database = await openPglite(config.DATA_DIR, options);
  } catch (error) {
    lock.release();
    throw error;
  }
  return {
    database,
    async close() {
      try {
        await database.close();
      } finally {
        lock.release();
      }
    },
  };
}
