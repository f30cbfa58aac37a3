/**
 * A process of its own running one scheduled job that never finishes (a test kills it with
 * SIGKILL mid-run): `tsx tests/support/scheduler-child.ts <database url> <job name> <lease ms>`.
 * Prints "started <lease owner>" once the job runs.
 */
import pino from "pino";
import { openPostgres } from "#server/platform/db/client";
import { createScheduler } from "#server/platform/jobs/scheduler";

const [url, name, leaseMs] = process.argv.slice(2) as [string, string, string];
const database = await openPostgres(url);
const scheduler = createScheduler({
  db: database.db,
  logger: pino({ level: "silent" }),
  tickMs: 100,
  processName: `child-${process.pid}`,
  jobs: [
    {
      name,
      every: 60 * 60_000,
      leaseMs: Number(leaseMs),
      run: () => {
        process.stdout.write(`started child-${process.pid}\n`);
        return new Promise<void>(() => {});
      },
    },
  ],
});
scheduler.start();
