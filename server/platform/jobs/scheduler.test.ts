import { spawn } from "node:child_process";
import { eq } from "drizzle-orm";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { scheduledJobs } from "#server/platform/db/schema";
import { createMailer } from "#server/platform/email/mailer";
import { scheduledJobsOf } from "#server/main/scheduled-jobs";
import { createSandboxProvider } from "#server/providers/payments/sandbox/provider";
import { createMetrics } from "#server/platform/metrics/metrics";
import { createMigratedDatabase, ENGINES, migratedDatabase } from "#tests/support/databases";
import { createScheduler, type Scheduler, type ScheduledJob } from "./scheduler";
import { EVERY_PAYEE_PAYABLE } from "#server/providers/payments/sandbox/pay";

const logger = pino({ level: "silent" });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(ENGINES)("the job scheduler on %s", (engine) => {
  const database = migratedDatabase(engine);
  const db = () => database.db;
  const started: Scheduler[] = [];
  // A clock the test moves; each test uses its own job names, so rows never meet.
  let time = Date.UTC(2026, 10, 26, 12, 0, 0);
  const now = () => new Date(time);
  const scheduler = (jobs: ScheduledJob[], extra: Partial<Parameters<typeof createScheduler>[0]> = {}) => {
    const made = createScheduler({ db: db(), jobs, logger, now, drainMs: 20, ...extra });
    started.push(made);
    return made;
  };
  const row = async (name: string) => (await db().select().from(scheduledJobs).where(eq(scheduledJobs.name, name)))[0]!;

  afterEach(async () => {
    await Promise.all(started.splice(0).map((s) => s.close()));
  });

  it("two schedulers ticking at once on one database run a job exactly once per period", async () => {
    let runs = 0;
    let concurrent = 0;
    let overlapped = false;
    const job = (): ScheduledJob => ({
      name: `counted-${engine}`,
      every: 1_000,
      async run() {
        runs += 1;
        concurrent += 1;
        if (concurrent > 1) overlapped = true;
        await sleep(2);
        concurrent -= 1;
      },
    });
    // Two processes' schedulers: on PostgreSQL their statements go over separate pooled connections.
    const a = scheduler([job()], { processName: "a" });
    const b = scheduler([job()], { processName: "b" });
    const startedAt = time;
    for (let i = 0; i < 50; i += 1) {
      time += 250;
      await Promise.all([a.tick(), b.tick()]);
      await Promise.all([a.idle(), b.idle()]);
    }
    // Due at once when first registered, then every second: 12.5 s of ticks make 13 periods.
    expect(runs).toBe(Math.floor((time - startedAt - 250) / 1_000) + 1);
    expect(runs).toBe(13);
    expect(overlapped).toBe(false);
    const state = await row(`counted-${engine}`);
    expect(state.leaseOwner).toBeNull();
    expect(state.nextRunAt.getTime()).toBe(startedAt + 250 + 13 * 1_000);
  });

  it("a job claimed by a process that died runs in another once the lease ran out, and the dead one's late finish changes nothing", async () => {
    const name = `orphaned-${engine}`;
    let finishDead: () => void = () => {};
    const dead = scheduler([{ name, every: 60 * 60_000, leaseMs: 60_000, run: () => new Promise<void>((resolve) => (finishDead = resolve)) }], { processName: "dead" });
    let rescued = 0;
    const alive = scheduler([{ name, every: 60 * 60_000, leaseMs: 60_000, run: async () => void (rescued += 1) }], { processName: "alive" });

    time += 1;
    await dead.tick();
    expect((await row(name)).leaseOwner).toMatch(/^dead:/);
    // Within the lease the other process leaves it alone.
    time += 30_000;
    await alive.tick();
    await alive.idle();
    expect(rescued).toBe(0);
    // The holder never renews (it "died"): after the lease the job is taken and run.
    time += 31_000;
    await alive.tick();
    await alive.idle();
    expect(rescued).toBe(1);
    const after = await row(name);
    expect(after.leaseOwner).toBeNull();
    expect(after.lastSucceededAt?.getTime()).toBe(time);
    // The first run ends at last: it no longer holds the job, so it records nothing.
    finishDead();
    await dead.idle();
    expect(await row(name)).toEqual(after);
  });

  it("a failing job backs off, doubling, is counted, and a success clears the count", async () => {
    const name = `flaky-${engine}`;
    const metrics = createMetrics();
    let fail = true;
    const s = scheduler(
      [{ name, every: 10 * 60_000, run: async () => { if (fail) throw new Error("mail server away"); } }],
      { metrics },
    );
    const tickAndWait = async () => {
      await s.tick();
      await s.idle();
    };
    time += 1;
    await tickAndWait();
    let state = await row(name);
    expect(state).toMatchObject({ consecutiveFailures: 1, lastError: "mail server away", leaseOwner: null });
    expect(state.nextRunAt.getTime()).toBe(time + 30_000);
    // Not yet due: nothing runs.
    time += 29_000;
    await tickAndWait();
    expect((await row(name)).consecutiveFailures).toBe(1);
    time += 1_000;
    await tickAndWait();
    state = await row(name);
    expect(state.consecutiveFailures).toBe(2);
    expect(state.nextRunAt.getTime()).toBe(time + 60_000);

    fail = false;
    time += 60_000;
    await tickAndWait();
    state = await row(name);
    expect(state).toMatchObject({ consecutiveFailures: 0, lastError: null });
    expect(state.nextRunAt.getTime()).toBe(time + 10 * 60_000);

    await s.tick(); // the gauges are read from the table at each tick
    const text = await metrics.registry.metrics();
    expect(text).toContain(`sponsorgrid_job_runs_total{job="${name}",outcome="failed"} 2`);
    expect(text).toContain(`sponsorgrid_job_runs_total{job="${name}",outcome="succeeded"} 1`);
    expect(text).toContain(`sponsorgrid_job_consecutive_failures{job="${name}"} 0`);
    expect(text).toContain(`sponsorgrid_job_next_run_timestamp_seconds{job="${name}"} ${(time + 10 * 60_000) / 1000}`);
    expect(text).toContain(`sponsorgrid_job_last_run_timestamp_seconds{job="${name}"} ${time / 1000}`);
  });

  it("says background work is stuck when no tick finished for too long", async () => {
    const s = scheduler([{ name: `quiet-${engine}`, every: 60_000, run: async () => {} }], { tickMs: 1_000, stuckAfterMs: 5_000 });
    expect(s.stuck()).toBeNull();
    time += 6_000;
    expect(s.stuck()).toMatch(/has not ticked since start/);
    await s.tick();
    expect(s.lastTickAt()?.getTime()).toBe(time);
    expect(s.stuck()).toBeNull();
    time += 6_000;
    expect(s.stuck()).toMatch(/has not ticked for 6 s/);
  });

  it("runs every job of the app against a real schema, in process, and records each run", async () => {
    const mailer = createMailer({ db: db(), from: "app@example.test", logger });
    const notificationDeps = { mailer, site: { appName: "Sponsorgrid", supportEmail: "help@example.test", publicOrigin: "http://localhost" }, unsubscribeKey: "k", platformFeePercent: 10 };
    // A provider with an empty balance: reconciliation reads it and finds the (empty) ledger agrees; no deal is due a transfer.
    const payments = {
      name: "sandbox" as const,
      listBalanceTransactions: async () => [],
      createTransfer: async (): Promise<{ transferId: string }> => {
        throw new Error("no deal is due its release here");
      },
      refundHeldPayment: async (): Promise<never> => {
        throw new Error("no cancelled deal holds money here");
      },
    };
    // With the sandbox as the provider, its checkouts' expiry and its memberships' renewals are among them (once across processes).
    const sandbox = createSandboxProvider({ db: db(), config: { PUBLIC_ORIGIN: "http://localhost" }, sessionSecret: "a-test-secret-that-is-long-enough-123", whyPayeeCannotBePaid: EVERY_PAYEE_PAYABLE });
    const jobs = scheduledJobsOf({ db: db(), notificationDeps, logger, payments, sandbox });
    expect(jobs.map((job) => job.name)).toEqual(expect.arrayContaining(["sandbox-expire-checkouts", "sandbox-renew-memberships"]));
    const withoutSandbox = scheduledJobsOf({ db: db(), notificationDeps, logger, payments }).map((job) => job.name);
    expect(withoutSandbox).not.toContain("sandbox-expire-checkouts");
    expect(withoutSandbox).not.toContain("sandbox-renew-memberships");
    const s = createScheduler({ db: db(), jobs, logger });
    started.push(s);
    await s.tick();
    await s.idle();
    for (const job of jobs) {
      const state = await row(job.name);
      expect({ name: job.name, failures: state.consecutiveFailures, error: state.lastError, succeeded: state.lastSucceededAt !== null }).toEqual({
        name: job.name,
        failures: 0,
        error: null,
        succeeded: true,
      });
    }
  });
});

// Only PostgreSQL is shared by processes: the embedded database lives inside its one process.
if (process.env.DATABASE_URL) {
  describe("a process killed mid-job on PostgreSQL", () => {
    it("keeps its job while it lives (the lease is renewed), and another process runs it after SIGKILL once the lease ran out", async () => {
      // Migrated before the child starts (a copy of the migrated template), and its exit watched
      // from the moment it is spawned: a child that failed early (say, PostgreSQL out of
      // connections on a busy CI machine) must fail this test with its reason, not leave it
      // waiting for a "started" that never comes.
      const database = await createMigratedDatabase("postgres");
      const url = database.url!;
      const child = spawn(process.execPath, ["--import", "tsx", "tests/support/scheduler-child.ts", url, "crash", "3000"], { stdio: ["ignore", "pipe", "inherit"] });
      const owner = new Promise<string>((resolve, reject) => {
        let out = "";
        child.stdout.on("data", (chunk: Buffer) => {
          out += chunk.toString();
          const started = /started (\S+)/.exec(out);
          if (started) resolve(started[1]!);
        });
        child.once("exit", (code, signal) => reject(new Error(`the child ended before its job started (code ${code}, signal ${signal})`)));
        child.once("error", reject);
      });
      owner.catch(() => {});
      let survivor: Scheduler | null = null;
      try {
        const childOwner = await owner;
        let runs = 0;
        let ranAt = 0;
        const run = async () => {
          runs += 1;
          ranAt = Date.now();
        };
        survivor = createScheduler({ db: database.db, logger, tickMs: 100, jobs: [{ name: "crash", every: 60 * 60_000, leaseMs: 3000, run }] });
        survivor.start();
        // Two leases' time while the child lives and renews: the job stays with it.
        await sleep(6_000);
        expect(runs).toBe(0);
        const held = (await database.db.select().from(scheduledJobs).where(eq(scheduledJobs.name, "crash")))[0]!;
        expect(held.leaseOwner).toMatch(new RegExp(`^${childOwner}:`));

        const killedAt = Date.now();
        child.kill("SIGKILL");
        while (runs === 0 && Date.now() - killedAt < 10_000) await sleep(50);
        expect(runs).toBe(1);
        // Not before the dead process's lease ran out (its last renewal can only have moved it later).
        expect(ranAt).toBeGreaterThanOrEqual(held.leaseUntil!.getTime());
        await survivor.idle();
        const after = (await database.db.select().from(scheduledJobs).where(eq(scheduledJobs.name, "crash")))[0]!;
        expect(after).toMatchObject({ leaseOwner: null, consecutiveFailures: 0 });
        expect(after.lastSucceededAt).not.toBeNull();
      } finally {
        child.kill("SIGKILL");
        await survivor?.close();
        await database.dispose();
      }
    }, 120_000);
  });
}
