import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { composeEnvironment, imageEnvironment, kubernetesObject, kubernetesPodEnvironment, kubernetesSecret } from "./deploy-examples";
import { onServer } from "./database-snapshots";
import { freePort, request, runInRelease, secondsUntilReady, startRelease, writableDir, type Env, type Release } from "./release-process";

/**
 * The built release on PostgreSQL with exactly the environment each deploy example sets — compose's
 * app and backup services, the Kubernetes Deployment with its documented secret, its migrate Job
 * and backup CronJob — on a scratch database of DATABASE_URL's server, with two roles as the
 * examples have them, the sandbox in place of Stripe's keys. Registered inside
 * tests/unit/release.test.ts, whose beforeAll builds the release (the slow part) once for both.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const adminUrl = process.env.DATABASE_URL;
// Where Docker's HEALTHCHECK and Kubernetes' probes send their requests: the address, not a name.
const probeHost = (port: number) => `127.0.0.1:${port}`;

/** The start-up budget the examples allow: the image's HEALTHCHECK start period, Kubernetes' startup probe. */
function startupBudgetSeconds(): number {
  const healthcheck = Number(/--start-period=(\d+)s/.exec(fs.readFileSync(path.join(ROOT, "Dockerfile"), "utf8"))?.[1]);
  const { periodSeconds, failureThreshold } = kubernetesObject("Deployment").spec.template.spec.containers[0].startupProbe;
  return Math.min(healthcheck, periodSeconds * failureThreshold);
}

export function onPostgresExamples(built: () => { release: string; work: string; tools: string; serveFlags: string[] }) {
  describe.skipIf(!adminUrl)("on PostgreSQL, with the environment each deploy example sets", () => {
    const suffix = randomBytes(4).toString("hex");
    const appRole = `sg_release_app_${suffix}`;
    const appPassword = randomBytes(12).toString("hex");
    const databases = { compose: `sg_release_compose_${suffix}`, kubernetes: `sg_release_k8s_${suffix}` };
    const admin = new URL(adminUrl ?? "postgres://postgres@127.0.0.1:5432/postgres");
    // With trust authentication any password passes; compose requires one.
    const ownerPassword = decodeURIComponent(admin.password) || "trusted";
    let release: string;
    let work: string;
    let base: Env;
    let budget: number;
    let compose: { app: Env; backup: Env; server?: Release; file?: string };

    /** An example's database URL pointed at a scratch database here: the app's role or the owner (the admin URL's user). */
    const local = (url: string, database: string) => {
      const target = new URL(url);
      target.host = admin.host;
      target.pathname = `/${database}`;
      const app = decodeURIComponent(target.username) === "sponsorgrid_app";
      target.username = app ? appRole : admin.username || "postgres";
      target.password = app ? appPassword : ownerPassword;
      return target.toString();
    };
    const owner = (database: string) => local("postgres://owner@x/x", database);
    const query = async <T extends pg.QueryResultRow>(database: string, text: string) => {
      const client = new pg.Client({ connectionString: owner(database) });
      await client.connect();
      try {
        return (await client.query<T>(text)).rows;
      } finally {
        await client.end();
      }
    };
    /** The image's ENV, its container paths (PORT, DATA_DIR) made this machine's; TMPDIR is /tmp, as in the image. */
    const serve = (env: Env) => startRelease(release, { ...env, TMPDIR: release }, built().serveFlags);
    const image = async (label: string): Promise<Env> => ({
      ...base,
      PORT: String(await freePort()),
      DATA_DIR: writableDir(path.join(work, `data-${label}`)),
    });

    beforeAll(async () => {
      ({ release, work } = built());
      base = { ...imageEnvironment(), PATH: built().tools, HOME: "/nonexistent" };
      budget = startupBudgetSeconds();
      await onServer(adminUrl!, async (client) => {
        await client.query(`create role ${appRole} login password '${appPassword}'`);
        for (const name of Object.values(databases)) await client.query(`create database ${name}`);
      });
      const shell = {
        POSTGRES_PASSWORD: ownerPassword,
        APP_DB_PASSWORD: appPassword,
        SESSION_SECRET: randomBytes(32).toString("hex"),
        PUBLIC_ORIGIN: "https://sponsorgrid.example",
        BIO_ORIGIN: "https://bio.sponsorgrid.example",
        PAYMENT_PROVIDER: "sandbox",
      };
      const app = composeEnvironment("app", shell);
      const backup = composeEnvironment("backup", { ...shell, BACKUP_KEEP: "2", BACKUP_COPY_COMMAND: `cp "$1" ${writableDir(path.join(work, "compose-offsite"))}/` });
      for (const env of [app, backup]) for (const name of ["DATABASE_URL", "MIGRATION_DATABASE_URL"]) env[name] = local(env[name]!, databases.compose);
      compose = { app, backup };
    });
    afterAll(async () => {
      if (compose?.server?.child.exitCode === null) compose.server.child.kill("SIGKILL");
      await onServer(adminUrl!, async (client) => {
        for (const name of Object.values(databases)) await client.query(`drop database if exists ${name} with (force)`);
        await client.query(`drop role if exists ${appRole}`);
      });
    });

    it("compose: the app's environment starts the release ready within the start-up budget, the tables the owner's, the app connected as its own role", async () => {
      compose.server = serve({ ...(await image("compose")), ...compose.app });
      const seconds = await secondsUntilReady(compose.server, probeHost(compose.server.port), budget * 1000);
      console.info(`release on PostgreSQL with compose's environment: ready ${seconds.toFixed(1)} s after start (budget ${budget} s)`);
      const owned = await query<{ owner: string }>(databases.compose, "select distinct tableowner as owner from pg_tables where schemaname in ('public', 'sandbox')");
      expect(owned).toEqual([{ owner: admin.username || "postgres" }]);
      const connected = await query<{ user: string }>(databases.compose, `select distinct usename as user from pg_stat_activity where datname = '${databases.compose}' and usename = '${appRole}'`);
      expect(connected).toHaveLength(1);
    }, 5 * 60_000);

    it("compose: the backup service's schedule backs up as the owner while the app runs, keeps the newest BACKUP_KEEP and hands each file to BACKUP_COPY_COMMAND", async () => {
      const dir = writableDir(path.join(work, "compose-backups"));
      for (const day of ["01", "02"]) fs.writeFileSync(path.join(dir, `sponsorgrid-postgres-202001${day}T031500Z.backup`), "older");
      // `sleep` that returns at once, then ends the loop: one turn of the schedule.
      const stubs = writableDir(path.join(work, "schedule-stubs"));
      const slept = path.join(stubs, "slept");
      fs.writeFileSync(path.join(stubs, "sleep"), `#!/bin/sh\necho "$1" >> ${slept}\nif [ -e ${slept}.twice ]; then exit 1; fi\n: > ${slept}.twice\n`, { mode: 0o755 });
      // The script as compose mounts it into the container.
      const script = path.join(work, "backup-daily.sh");
      fs.copyFileSync(path.join(ROOT, "deploy/backup-daily.sh"), script);
      const env = { ...(await image("backup")), ...compose.backup, BACKUP_DIR: dir, PATH: `${stubs}:${base.PATH}` };

      const ran = runInRelease(release, ["sh", script], env);
      expect(ran.status, `${ran.stdout}\n${ran.stderr}`).toBe(1);
      expect(ran.stdout).toContain(`every day at ${compose.backup.BACKUP_AT} UTC into ${dir}, keeping the newest 2`);
      const waited = fs.readFileSync(slept, "utf8").trim().split("\n").map(Number);
      expect(waited).toHaveLength(2);
      for (const seconds of waited) {
        expect(seconds).toBeGreaterThan(0);
        expect(seconds).toBeLessThanOrEqual(86_400);
      }
      compose.file = /^Backup written: (\S+)$/m.exec(ran.stdout)?.[1];
      expect(ran.stdout).toContain("Copied by BACKUP_COPY_COMMAND.");
      expect(fs.readdirSync(dir).sort()).toEqual(["sponsorgrid-postgres-20200102T031500Z.backup", path.basename(compose.file!)]);
      expect(fs.readdirSync(path.join(work, "compose-offsite"))).toEqual([path.basename(compose.file!)]);
    }, 5 * 60_000);

    it("compose: the restore drill — refused while the app runs; stopped, `node server.js restore FILE --force` as the backup service puts the data back and the app starts ready on it", async () => {
      await query(databases.compose, "update bio_pages set blurb = 'written after the backup'");
      const env = { ...(await image("restore")), ...compose.backup };
      const restore = () => runInRelease(release, ["node", "server.js", "restore", compose.file!, "--force"], env);
      const refused = restore();
      expect(refused.status).toBe(1);
      expect(refused.stderr).toMatch(/other connection\(s\) are open.*Stop the app processes/);

      expect(await compose.server!.stop()).toBe(0);
      const restored = restore();
      expect(restored.status, restored.stderr).toBe(0);
      expect(restored.stdout).toMatch(/^Restored /);
      expect(await query(databases.compose, "select id from bio_pages where blurb = 'written after the backup'")).toEqual([]);

      compose.server = serve({ ...(await image("compose-again")), ...compose.app });
      await secondsUntilReady(compose.server, probeHost(compose.server.port), budget * 1000);
      expect(await compose.server.stop()).toBe(0);
      expect(compose.server.log()).not.toMatch(/"level":(50|60)/);
    }, 5 * 60_000);

    it("Kubernetes: the migrate Job, then the Deployment's environment and documented secret (the sandbox for Stripe's keys) start ready, /metrics answers its token, and the CronJob's command backs up", async () => {
      const { STRIPE_SECRET_KEY: _key, STRIPE_WEBHOOK_SECRET: _hook, ...secret } = kubernetesSecret();
      secret.PAYMENT_PROVIDER = "sandbox";
      for (const name of ["DATABASE_URL", "MIGRATION_DATABASE_URL"]) secret[name] = local(secret[name]!, databases.kubernetes);
      const env = { ...(await image("kubernetes")), ...kubernetesPodEnvironment(), ...secret };

      const [job] = kubernetesObject("Job").spec.template.spec.containers;
      const migrated = runInRelease(release, job.command, env);
      expect(migrated.status, migrated.stderr).toBe(0);

      const server = serve(env);
      try {
        const seconds = await secondsUntilReady(server, probeHost(server.port), budget * 1000);
        console.info(`release on PostgreSQL with the Kubernetes example's environment, migrated by its Job: ready ${seconds.toFixed(1)} s after start`);
        const metrics = await request(server.port, "/metrics", probeHost(server.port), { authorization: `Bearer ${secret.METRICS_TOKEN}` });
        expect(metrics.status).toBe(200);

        const [cron] = kubernetesObject("CronJob").spec.jobTemplate.spec.template.spec.containers;
        const dir = writableDir(path.join(work, "kubernetes-backups"));
        const backedUp = runInRelease(release, (cron.command as string[]).map((word) => (word === "/backups" ? dir : word)), env);
        expect(backedUp.status, backedUp.stderr).toBe(0);
        expect(backedUp.stdout).toMatch(new RegExp(`^Backup written: ${dir}/sponsorgrid-postgres-\\d{8}T\\d{6}Z\\.backup$`, "m"));
      } finally {
        await server.stop();
      }
    }, 5 * 60_000);
  });
}
