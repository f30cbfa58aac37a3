import fs from "node:fs";
import { PROJECT_ALIASES } from "./import-aliases.ts";
import { defineConfig } from "vitest/config";

const TEST_FOLDERS = ["server", "app", "isomorphic", "page-kit", "tests/unit"];
const INCLUDE = TEST_FOLDERS.map((folder) => `${folder}/**/*.test.ts`);

/**
 * A test file that opens a database (or starts a server process that does) imports one of these.
 * Those files run in child processes of their own (the `database` project); every other file is
 * light and runs in worker threads, which start in a fraction of the time (the `light` project).
 */
const OPENS_A_DATABASE = /#tests\/support\/(databases|server-process|cluster)|#server\/platform\/db\/(client|open)"|@electric-sql\/pglite"/;

function databaseFiles(): string[] {
  return TEST_FOLDERS.flatMap((folder) =>
    fs
      .readdirSync(folder, { recursive: true, encoding: "utf8" })
      .filter((name) => name.endsWith(".test.ts"))
      .map((name) => `${folder}/${name}`),
  ).filter((file) => OPENS_A_DATABASE.test(fs.readFileSync(file, "utf8")));
}

export default defineConfig({
  resolve: {
    alias: PROJECT_ALIASES,
  },
  test: {
    environment: "node",
    // PROPERTY_SEED replays a property failure (tests/support/property-runs.ts).
    setupFiles: ["tests/support/vitest-setup.ts"],
    testTimeout: 60_000,
    // Setting a database up costs under a second (tests/support/database-snapshots.ts); a hook's
    // minute covers the servers some files start, on a busy machine too.
    hookTimeout: 60_000,
    // PGlite instances are memory-hungry; two cores run two files at a time.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: { name: "light", include: INCLUDE, exclude: databaseFiles(), pool: "threads" },
      },
      {
        extends: true,
        test: {
          name: "database",
          include: databaseFiles(),
          pool: "forks",
          // Each worker process runs its files one after another with their modules loaded once:
          // every file used to pay a fresh process, the imports (~280 s of a run) and PGlite's
          // WASM compile again. Files share no state but what they open themselves: each gets its
          // own database (tests/support/databases.ts).
          isolate: false,
          // The migrated snapshots every test database is copied from, made once per run.
          globalSetup: ["tests/support/vitest-global-setup.ts"],
        },
      },
    ],
  },
});
