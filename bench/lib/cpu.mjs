import { execFileSync } from "node:child_process";
import fs from "node:fs";

/**
 * CPU time per request, from /proc (Linux only; 0 elsewhere). The load tool, the server and
 * PostgreSQL share the machine's cores, so response times move with the neighbours' load; the CPU
 * a request cost the server process and the bench database's backends barely does.
 */
export const CLOCK_TICKS = fs.existsSync("/proc/self/stat") ? Number(execFileSync("getconf", ["CLK_TCK"]).toString()) || 100 : 0;

/** CPU milliseconds a process has used so far; 0 once it is gone. */
export function cpuMsOf(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after "(name) ": state is [0], utime [11], stime [12] (fields 14 and 15 of proc(5)).
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/** CPU milliseconds so far of the server and of each PostgreSQL backend on the client's database (none without a client: PGlite runs inside the server). */
export async function cpuSnapshot(serverPid, pgClient) {
  const backends = new Map();
  if (pgClient) {
    const { rows } = await pgClient.query("select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()");
    for (const { pid } of rows) backends.set(pid, cpuMsOf(pid));
  }
  return { server: cpuMsOf(serverPid), backends };
}

/** CPU per request since `before`, of the server and of the database's backends (one the pool opened meanwhile counts from zero). */
export async function cpuPerRequest(serverPid, pgClient, before, requests) {
  const after = await cpuSnapshot(serverPid, pgClient);
  let db = 0;
  for (const [pid, ms] of after.backends) db += ms - (before.backends.get(pid) ?? 0);
  return { serverMs: (after.server - before.server) / requests, dbMs: db / requests };
}
