import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { PGlite } from "@electric-sql/pglite";
import { openPostgres, PGLITE_SETTINGS, pgliteStartParams } from "#server/platform/db/client";
import { migrateDatabase, MIGRATIONS_DIR } from "#server/platform/db/migrate";
import { projectPath } from "#server/platform/paths";
import { SANDBOX_MIGRATIONS } from "#server/providers/payments/sandbox/migrations";

/**
 * A migrated database made once and copied for every test that needs one, instead of migrating
 * from empty each time (45 s per file on a busy machine against well under one; ADR 0058).
 *
 * - PGlite: a dump of a migrated data folder (`dumpDataDir`), which `openPglite(null, {}, { from })`
 *   loads
 *   without running initdb or a migration.
 * - PostgreSQL: a migrated database used as the `template` of each test's `create database`.
 *
 * Both are named by a key over everything that shapes the migrated schema (the two migration
 * chains, the migrator and the engine's version), so a changed migration makes a new snapshot and
 * an unchanged one is reused from one run to the next. Migration tests never use them: they
 * still migrate from empty (tests/support/databases.ts, `createEmptyDatabase`).
 */

/** The chains every test database has: the product's and the sandbox provider's, as a server with PAYMENT_PROVIDER=sandbox. */
export const TEST_MIGRATION_CHAINS = [SANDBOX_MIGRATIONS];

const CACHE_DIR = projectPath("node_modules/.cache/sponsorgrid-test-databases");

let memoisedKey: string | undefined;

/** 12 hex characters over the migration files, the migrator and the engines' packages. */
export function snapshotKey(): string {
  if (memoisedKey) return memoisedKey;
  const hash = createHash("sha256");
  for (const folder of [MIGRATIONS_DIR, SANDBOX_MIGRATIONS.folder]) {
    for (const file of listFiles(folder)) hash.update(path.relative(folder, file)).update(fs.readFileSync(file));
  }
  hash.update(fs.readFileSync(projectPath("server/platform/db/migrate.ts")));
  hash.update(PGLITE_SETTINGS.join(" "));
  hash.update(readVersion("@electric-sql/pglite")).update(readVersion("drizzle-orm"));
  return (memoisedKey = hash.digest("hex").slice(0, 12));
}

function listFiles(folder: string): string[] {
  return fs
    .readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

function readVersion(pkg: string): string {
  return JSON.parse(fs.readFileSync(projectPath("node_modules", pkg, "package.json"), "utf8")).version;
}

/**
 * The path of the migrated PGlite dump, made now if this key has none. Written to a temporary
 * name and renamed, so a reader never sees half a file and two makers at once both succeed.
 */
export async function ensurePgliteSnapshot(): Promise<string> {
  const file = path.join(CACHE_DIR, `pglite-${snapshotKey()}.tar`);
  if (fs.existsSync(file)) return file;
  fs.mkdirSync(CACHE_DIR, { recursive: true });
  const client = new PGlite({ startParams: pgliteStartParams() });
  try {
    await migrateDatabase({ engine: "pglite", client }, TEST_MIGRATION_CHAINS);
    const dump = await client.dumpDataDir("none");
    const partial = `${file}.${randomBytes(4).toString("hex")}.partial`;
    fs.writeFileSync(partial, new Uint8Array(await dump.arrayBuffer()));
    fs.renameSync(partial, file);
  } finally {
    await client.close();
  }
  for (const old of fs.readdirSync(CACHE_DIR)) {
    if (old.startsWith("pglite-") && old !== path.basename(file) && !old.endsWith(".partial")) fs.rmSync(path.join(CACHE_DIR, old), { force: true });
  }
  return file;
}

let snapshotBlob: Promise<Blob> | undefined;

/** The dump, read once per process. */
export function pgliteSnapshot(): Promise<Blob> {
  snapshotBlob ??= ensurePgliteSnapshot().then((file) => new Blob([fs.readFileSync(file)]));
  return snapshotBlob;
}

/**
 * `linguisticCollation` (PostgreSQL only) gives the database an English ICU collation that, like
 * glibc's en_US, ignores spaces at first: 'newsletter' sorts before 'new york', the other way round
 * from byte order.
 */
export type TemplateOptions = { linguisticCollation?: boolean };

/** The `create database` clause for `linguisticCollation`. */
export const LINGUISTIC_COLLATION = "locale_provider icu icu_locale 'en-US-u-ka-shifted' template template0";

const TEMPLATE_NOTE = "Sponsorgrid test template, made ";
const STALE_TEMPLATE_MS = 24 * 60 * 60 * 1000;

/** The name of the migrated template database for these options on the server of `adminUrl`. */
export function templateName(options: TemplateOptions = {}): string {
  return `sg_template_${snapshotKey()}${options.linguisticCollation ? "_icu" : ""}`;
}

/**
 * The migrated template database, made now if the server has none for this key: built under a
 * name of its own, then renamed, so a run that finds the name finds it whole. Templates of
 * another key made more than a day ago are dropped.
 */
export async function ensurePostgresTemplate(adminUrl: string, options: TemplateOptions = {}): Promise<string> {
  const name = templateName(options);
  const exists = async (client: pg.Client) => (await client.query("select 1 from pg_database where datname = $1", [name])).rowCount === 1;
  if (await onServer(adminUrl, exists)) return name;

  const building = `sg_building_${randomBytes(6).toString("hex")}`;
  await onServer(adminUrl, (client) =>
    client.query(
      options.linguisticCollation
        ? `create database ${building} ${LINGUISTIC_COLLATION}`
        : `create database ${building}`,
    ),
  );
  const handle = await openPostgres(withDatabase(adminUrl, building));
  try {
    await handle.migrate(TEST_MIGRATION_CHAINS);
  } finally {
    await handle.close();
  }
  await onServer(adminUrl, async (client) => {
    if (await exists(client)) {
      // Another run made it at the same time: theirs is as good as ours.
      await client.query(`drop database ${building}`);
      return;
    }
    await client.query(`alter database ${building} rename to ${name}`);
    await client.query(`comment on database ${name} is '${TEMPLATE_NOTE}${new Date().toISOString()}'`);
    // Another checkout's run may be copying an older template right now (two runs share a machine,
    // and a server): only those made more than a day ago go.
    const stale = await client.query<{ datname: string; note: string | null }>(
      "select datname, shobj_description(oid, 'pg_database') as note from pg_database where datname like 'sg\\_template\\_%' and datname not like $1",
      [`sg\\_template\\_${snapshotKey()}%`],
    );
    for (const { datname, note } of stale.rows) {
      const made = note?.startsWith(TEMPLATE_NOTE) ? Date.parse(note.slice(TEMPLATE_NOTE.length)) : 0;
      if (Date.now() - made > STALE_TEMPLATE_MS) await client.query(`drop database if exists ${datname}`).catch(() => {});
    }
  });
  return name;
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export async function onServer<T>(adminUrl: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}
