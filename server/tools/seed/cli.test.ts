import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openPglite } from "#server/platform/db/client";
import { acquireDataDirLock } from "#server/platform/db/lock";
import sponsorTagData from "#server/tools/seed/data/sponsor-tags.json" with { type: "json" };
import sponsorData from "#server/tools/seed/data/sponsors.json" with { type: "json" };

const run = promisify(execFile);
const CLI = path.resolve("server/tools/seed/seed-database.ts");
// 96 opportunity filter tags and the sponsor directory's own.
const EXPECTED_TAGS = 96 + sponsorTagData.length;

/** `npm run seed` as an operator runs it, on its own embedded database folder. */
async function seed(dataDir: string) {
  try {
    const { stdout, stderr } = await run(process.execPath, ["--import", "tsx", CLI], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", NODE_ENV: "development" },
      timeout: 170_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe("npm run seed (server/tools/seed/seed-database.ts)", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sg-seed-cli-"));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it("refuses, and opens nothing, while a server holds the data folder", async () => {
    const serverLock = acquireDataDirLock(dataDir); // this test process stands in for the running server
    try {
      const result = await seed(dataDir);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/Cannot seed: .*already in use/);
      expect(fs.existsSync(path.join(dataDir, "pglite"))).toBe(false);
    } finally {
      serverLock.release();
    }
  }, 180_000);

  it("fills an empty folder with the catalogues, the sponsor directory and demo data, then a second run changes nothing", async () => {
    const first = await seed(dataDir);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(new RegExp(`${EXPECTED_TAGS} tags added; ${sponsorData.length} sponsor companies in the directory; demo accounts and posts added`));

    const second = await seed(dataDir);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(new RegExp(`0 tags added; ${sponsorData.length} sponsor companies in the directory; demo data was already there`));

    // The CLI let go of the folder: the server (here, this process) can take it.
    const lock = acquireDataDirLock(dataDir);
    const database = await openPglite(dataDir);
    try {
      const result = (await database.db.execute(
        sql`select (select count(*)::int from opportunity_posts) as posts,
                   (select total from totals where name = 'opportunity posts') as total,
                   (select count(*)::int from "user" where email = 'maya@demo.sponsorgrid.example') as creators,
                   (select count(*)::int from external_sponsors) as sponsors`,
      )) as unknown as { rows: { posts: number; total: number; creators: number; sponsors: number }[] };
      const counts = result.rows[0]!;
      expect(counts.posts).toBeGreaterThan(0);
      expect(counts.total).toBe(counts.posts);
      expect(counts.creators).toBe(1);
      expect(counts.sponsors).toBe(sponsorData.length);
    } finally {
      await database.close();
      lock.release();
    }
  }, 300_000);
});
