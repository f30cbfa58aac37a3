// `npm run restore -- FILE [--force]`: puts a backup made by `npm run backup` back, into an empty
// database unless --force. Refuses, changing nothing, a damaged file, a backup from a newer
// release or the other engine, and (embedded database) a data folder a server holds.
import fs from "node:fs";
import { parseArgs } from "node:util";
import { ConfigError, loadConfig } from "#server/config";
import { restoreBackup } from "./backup";
import { describeFailure } from "./cli-output";

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({ options: { force: { type: "boolean", default: false } }, allowPositionals: true });
  const [file] = positionals;
  if (!file || positionals.length > 1) {
    console.error("Usage: npm run restore -- FILE [--force]");
    return 2;
  }
  if (fs.existsSync(".env")) process.loadEnvFile(".env");
  const config = loadConfig(process.env);
  const done = await restoreBackup(config, file, { force: values.force });
  console.log(`Restored ${file} (${done.header.engine}, made ${done.header.createdAt} by app ${done.header.appVersion}) in ${(done.ms / 1000).toFixed(1)} s.`);
  for (const note of done.notes) console.log(`  ${note}`);
  console.log("  Start the server as usual.");
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`Cannot restore: ${describeFailure(error, ConfigError)}`);
    process.exit(1);
  },
);
