import type { Config } from "#server/config";
import type { Db } from "#server/db/client";
import type { Logger } from "pino";
import { createSandboxProvider, type SandboxProvider } from "./provider";

/**
 * One sandbox per database in a process, shared by the provider factory, the
 * /sandbox pages and the server's lifecycle (which starts its delivery worker
 * and closes it on shutdown).
 */
const perDatabase = new WeakMap<Db, SandboxProvider>();

export function sandboxFor(context: { db: Db; config: Pick<Config, "PUBLIC_ORIGIN">; sessionSecret: string; logger?: Pick<Logger, "info" | "warn" | "error"> }): SandboxProvider {
  let sandbox = perDatabase.get(context.db);
  if (!sandbox) {
    sandbox = createSandboxProvider({ db: context.db, config: context.config, sessionSecret: context.sessionSecret, logger: context.logger });
    perDatabase.set(context.db, sandbox);
  }
  return sandbox;
}

export async function closeSandbox(db: Db): Promise<void> {
  const sandbox = perDatabase.get(db);
  perDatabase.delete(db);
  await sandbox?.close();
}
