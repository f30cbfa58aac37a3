// Entry of the server bundle (see vite.config.ts): binds the React Router
// build to our HTTP server. `server.js` at the project root imports this.
import { fileURLToPath } from "node:url";
import * as build from "virtual:react-router/server-build";
import { startServer } from "./lifecycle";

export { ConfigError } from "#server/platform/config";
export { DataDirLockedError } from "#server/platform/db/lock";
export { PortUnavailableError } from "#server/platform/http/listen";
// `node server.js backup|restore`: a release has no tsx to run `npm run backup|restore` with.
export { backupCommand, restoreCommand } from "#server/tools/backup/commands";
// `node server.js admin grant|revoke|list`: who is staff, where there is no npm (README "Back office").
export { runReleaseAdminCommand } from "#server/main/admin-cli";
// `node server.js migrate`: the migrations as a step of their own (README "Deploy").
export { migrateCommand } from "#server/main/migrate-configured";

export function start() {
  return startServer({
    build: build as unknown as Parameters<typeof startServer>[0]["build"],
    clientDir: fileURLToPath(new URL("../client", import.meta.url)),
  });
}
