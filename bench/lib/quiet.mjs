// Waiting for a quiet machine before a sample: another program's work on the two shared cores
// would land in one side's figures and not the other's, and skew the ratio.
import fs from "node:fs";
import { sleep } from "./app-server.mjs";

function cpuTicks() {
  const [, ...values] = fs.readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).map(Number);
  return { idle: values[3] + (values[4] ?? 0), total: values.reduce((a, b) => a + b, 0) };
}

/**
 * Waits (up to `maxSeconds`) until the cores are ≥ 85 % idle over 2 s and returns the idle share
 * it saw last (NaN without /proc). `onStillBusy(idle)` is told when it gives up waiting.
 */
export async function waitForQuiet({ maxSeconds = 10, onStillBusy = () => {} } = {}) {
  if (!fs.existsSync("/proc/stat")) return NaN;
  const started = Date.now();
  for (;;) {
    const before = cpuTicks();
    await sleep(2000);
    const after = cpuTicks();
    const idle = (after.idle - before.idle) / (after.total - before.total);
    if (idle >= 0.85) return idle;
    if (Date.now() - started > maxSeconds * 1000) {
      onStillBusy(idle);
      return idle;
    }
  }
}
