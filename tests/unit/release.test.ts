import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, imageToolsPath, request, runInRelease, secondsUntilReady, startRelease, writableDir, type Env, type Release } from "#tests/support/release-process";
import { onPostgresExamples } from "#tests/support/release-examples";

/**
 * What the Dockerfile runs, tested without a container runtime (ADR 0043): scripts/release.sh
 * builds a release, which is made read-only and started as a non-root user (nobody, as the image
 * runs as `node`) with only the environment for settings, the embedded database in DATA_DIR.
 * Slow (npm ci, a build, a first start with the demo data): the release is built once, in
 * beforeAll, and everything after runs on it — on PostgreSQL too (tests/support/release-examples.ts), with the
 * environment each deploy example sets.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const SERVE_FLAGS: string[] = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"))
  .scripts.serve.split(" ")
  .filter((word: string) => word.startsWith("--"));
const READY_PATH = "/readyz";

type Snapshot = Map<string, string>;

/** Every file and folder under `dir` with its size and modification time. */
function snapshot(dir: string): Snapshot {
  const entries: Snapshot = new Map();
  for (const name of fs.readdirSync(dir, { recursive: true }) as string[]) {
    const stat = fs.lstatSync(path.join(dir, name));
    entries.set(name, `${stat.isDirectory() ? "dir" : stat.size} ${stat.mtimeMs}`);
  }
  return entries;
}

describe("the release (scripts/release.sh), as the image runs it", () => {
  let work: string;
  let release: string;
  let dataDir: string;
  let tools: string;
  let port: number;
  let server: Release;
  let before: Snapshot;
  const timings: Record<string, number> = {};
  const get = (pathname: string, host = `localhost:${port}`) => request(port, pathname, host);

  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), "sponsorgrid-release-test-"));
    // nobody must be able to enter the folders (mkdtemp makes them 0700).
    fs.chmodSync(work, 0o755);
    release = path.join(work, "app");
    dataDir = path.join(work, "data");
    tools = imageToolsPath(path.join(work, "bin"));

    const started = Date.now();
    const built = spawnSync("bash", [path.join(ROOT, "scripts/release.sh"), release], { encoding: "utf8", timeout: 12 * 60_000 });
    timings.releaseSeconds = (Date.now() - started) / 1000;
    if (built.status !== 0) throw new Error(`scripts/release.sh failed (${built.status}):\n${built.stdout}\n${built.stderr}`);

    // Writable by nobody, the owner included; root, which CI runs as, is not who the server runs as.
    spawnSync("chmod", ["-R", "a-w", release]);
    writableDir(dataDir);
    before = snapshot(release);

    port = await freePort();
    // Only what an operator would set: no DATABASE_URL from the test's own environment, no .env.
    // HOME and TMPDIR lead nowhere writable, so a write outside DATA_DIR fails loudly.
    server = startRelease(release, { PATH: tools, NODE_ENV: "production", DOTENV: "off", DATA_DIR: dataDir, PORT: String(port), HOST: "127.0.0.1", HOME: "/nonexistent", TMPDIR: release }, SERVE_FLAGS);
    timings.startToReadySeconds = await secondsUntilReady(server, `localhost:${port}`, 5 * 60_000, READY_PATH);
    console.info(`release: built in ${timings.releaseSeconds.toFixed(0)} s, ready ${timings.startToReadySeconds.toFixed(1)} s after start`);
  }, 20 * 60_000);

  afterAll(async () => {
    if (server && server.child.exitCode === null) {
      server.child.kill("SIGKILL");
      await server.exited;
    }
    if (work) {
      spawnSync("chmod", ["-R", "u+w", work]);
      fs.rmSync(work, { recursive: true, force: true });
    }
  });

  it("holds the server's files and production dependencies only: no sources, tests, settings or build tools", () => {
    const top = fs.readdirSync(release).sort();
    expect(top).toEqual(["build", "node_modules", "package.json", "server", "server.js"]);
    for (const devOnly of ["vite", "tsx", "typescript", "vitest", "@react-router/dev", "drizzle-kit", "@playwright/test"]) {
      expect(fs.existsSync(path.join(release, "node_modules", devOnly)), devOnly).toBe(false);
    }
    // The server reads only SQL and the journal of each migration chain.
    const migrations = fs.readdirSync(path.join(release, "server/platform/db/migrations/meta"));
    expect(migrations).toEqual(["_journal.json"]);
  });

  it(`turns ready (${READY_PATH} 200) as a non-root user, from a read-only folder`, async () => {
    const res = await get(READY_PATH);
    expect(res.status).toBe(200);
    const uid = /^Uid:\s+(\d+)\s+(\d+)/m.exec(fs.readFileSync(`/proc/${server.child.pid}/status`, "utf8"));
    expect(Number(uid?.[1])).not.toBe(0);
    expect(Number(uid?.[2])).not.toBe(0);
    expect(spawnSync("find", [release, "-not", "-type", "l", "-perm", "/222"], { encoding: "utf8" }).stdout).toBe("");
  });

  it("serves what it reads from its folder at run time: a content page, browser assets, a bio page and its share image", async () => {
    const home = await get("/");
    expect(home.status).toBe(200);
    const html = home.body.toString();
    const stylesheet = /href="(\/assets\/[^"]+\.css)"/.exec(html)?.[1];
    expect(stylesheet).toBeDefined();
    expect((await get(stylesheet!)).status).toBe(200);
    expect((await get("/blog/how-to-price-a-sponsored-video")).status).toBe(200);
    const bioHost = `bio.localhost:${port}`;
    const bio = await get("/mayamakes", bioHost);
    expect(bio.status).toBe(200);
    // Network icons come from simple-icons in node_modules.
    expect(bio.body.toString()).toContain("<svg");
    // The share image is drawn with the DejaVu fonts and resvg's native binary.
    const share = await get("/mayamakes/share.png", bioHost);
    expect(share.status).toBe(200);
    expect(share.type).toBe("image/png");
    expect(share.body.subarray(1, 4).toString()).toBe("PNG");
    expect(share.body.byteLength).toBeGreaterThan(1000);
  });

  it("stops cleanly on SIGTERM, having written only into DATA_DIR", async () => {
    expect(await server.stop()).toBe(0);
    expect(server.log()).not.toMatch(/EACCES|EROFS|"level":(50|60)/);
    expect(snapshot(release)).toEqual(before);
    expect(fs.readdirSync(dataDir)).toContain("pglite");
  });

  it("backs up and restores its stopped database with `node server.js backup|restore` (keeping the newest, handing each to BACKUP_COPY_COMMAND), and names staff with `node server.js admin`: no npm or tsx on its PATH", () => {
    const backups = writableDir(path.join(work, "pglite-backups"));
    const offsite = writableDir(path.join(work, "pglite-offsite"));
    const older = path.join(backups, "sponsorgrid-pglite-20200101T031500Z.backup");
    fs.writeFileSync(older, "an older backup");
    const env: Env = { PATH: tools, NODE_ENV: "production", DOTENV: "off", DATA_DIR: dataDir, HOME: "/nonexistent" };
    const run = (...command: string[]) => runInRelease(release, ["node", "server.js", ...command], env);

    env.BACKUP_COPY_COMMAND = `cp "$1" ${offsite}/`;
    const backedUp = run("backup", "--dir", backups, "--keep", "1");
    delete env.BACKUP_COPY_COMMAND;
    expect(backedUp.status, backedUp.stderr).toBe(0);
    const file = /^Backup written: (\S+)$/m.exec(backedUp.stdout)?.[1];
    expect(path.dirname(file!)).toBe(backups);
    expect(backedUp.stdout).toContain("Copied by BACKUP_COPY_COMMAND.");
    expect(fs.readdirSync(backups)).toEqual([path.basename(file!)]);
    expect(fs.readdirSync(offsite)).toEqual([path.basename(file!)]);

    const restored = run("restore", file!, "--force");
    expect(restored.status, restored.stderr).toBe(0);
    expect(restored.stdout).toMatch(/^Restored /);
    // Its hints name the command a release has: no npm here.
    const listed = run("admin", "list");
    expect(listed.status, listed.stderr).toBe(0);
    expect(listed.stdout.trim()).toBe("No staff yet. Make the first with: node server.js admin grant EMAIL");
    expect(snapshot(release)).toEqual(before);
  });

  onPostgresExamples(() => ({ release, work, tools, serveFlags: SERVE_FLAGS }));
});
