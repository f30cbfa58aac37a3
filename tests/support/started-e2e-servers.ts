import fs from "node:fs";
import { STARTED_SERVERS_FILES } from "./e2e-servers";

/** The pids start-e2e-servers.ts wrote for this E2E_PORT, in e2eServers() order; none when it did not run. */
export function startedPids(): number[] {
  if (!fs.existsSync(STARTED_SERVERS_FILES.pids)) return [];
  return fs.readFileSync(STARTED_SERVERS_FILES.pids, "utf8").split("\n").filter(Boolean).map(Number);
}

/** Whether the process (group leader) still runs: signal 0 checks without sending anything. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
