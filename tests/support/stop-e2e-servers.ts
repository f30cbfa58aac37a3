// Stops the servers start-e2e-servers.ts started on this E2E_PORT: SIGTERM to each one's process
// group (the server shuts down gracefully), SIGKILL to what is left after 15 s; then forgets them.
import fs from "node:fs";
import { STARTED_SERVERS_FILES } from "./e2e-servers";
import { isRunning, startedPids } from "./started-e2e-servers";

const pids = startedPids();
const signal = (pid: number, name: NodeJS.Signals) => {
  try {
    process.kill(-pid, name);
  } catch {
    // Already gone.
  }
};

for (const pid of pids) signal(pid, "SIGTERM");
const deadline = Date.now() + 15_000;
while (pids.some(isRunning) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
for (const pid of pids.filter(isRunning)) signal(pid, "SIGKILL");
for (const file of [STARTED_SERVERS_FILES.pids, STARTED_SERVERS_FILES.secret]) fs.rmSync(file, { force: true });
console.log(pids.length ? `stopped ${pids.join(", ")}` : "nothing to stop");
