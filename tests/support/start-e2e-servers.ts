// Starts the end-to-end suite's servers (tests/support/e2e-servers.ts: the test services and the
// built server on a fresh embedded database) in the background and returns at once, so they boot
// while something else runs (the unit tests); then `E2E_SERVERS_STARTED=1 npx playwright test`
// reuses them instead of starting its own. Needs `npm run build` first, like Playwright does.
//
//   npx tsx tests/support/start-e2e-servers.ts   # E2E_PORT picks the ports, as for Playwright
//   npx tsx tests/support/wait-e2e-servers.ts    # until both answer (fails if one died)
//   E2E_SERVERS_STARTED=1 npx playwright test --project=chromium
//   npx tsx tests/support/stop-e2e-servers.ts
//
// It writes STARTED_SERVERS_FILES: the pids (each its own process group), the test-routes secret
// Playwright then sends, and the servers' stderr.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { e2eServers, ROOT, STARTED_SERVERS_FILES } from "./e2e-servers";
import { isRunning, startedPids } from "./started-e2e-servers";

// Files left by a run that died without stopping its servers are stale once none of them runs.
if (startedPids().some(isRunning)) {
  console.error(`Servers started for this port still run (${path.relative(ROOT, STARTED_SERVERS_FILES.pids)}): stop them first (tests/support/stop-e2e-servers.ts).`);
  process.exit(1);
}
if (!fs.existsSync(path.join(ROOT, "build/server/index.js"))) {
  console.error("No build: run `npm run build` first.");
  process.exit(1);
}

// A secret given in the environment is kept, so a caller that exported one for Playwright matches.
const secret = process.env.E2E_TEST_ROUTES_SECRET ?? randomBytes(24).toString("base64url");
fs.mkdirSync(path.dirname(STARTED_SERVERS_FILES.pids), { recursive: true });
fs.writeFileSync(STARTED_SERVERS_FILES.secret, `${secret}\n`, { mode: 0o600 });
const log = fs.openSync(STARTED_SERVERS_FILES.log, "w");

const pids: number[] = [];
for (const server of e2eServers(secret)) {
  const child = spawn("sh", ["-c", server.command], {
    cwd: ROOT,
    env: { ...process.env, ...server.env },
    // Its own process group, not tied to this script, which ends now.
    detached: true,
    stdio: ["ignore", "ignore", log],
  });
  child.unref();
  pids.push(child.pid!);
  console.log(`${server.name}: pid ${child.pid}, ready at ${server.url}`);
}
fs.writeFileSync(STARTED_SERVERS_FILES.pids, `${pids.join("\n")}\n`);
fs.closeSync(log);
