import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql, type SQL } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgres, type DatabaseHandle } from "#server/platform/db/client";
import { acquireDataDirLock } from "#server/platform/db/lock";
import { openConfiguredDatabase } from "#server/platform/db/open";
import { photos, photoVariants, refundRequests, sponsorSessions } from "#server/platform/db/schema";
import { sendNotification } from "#server/domains/notifications/send";
import { recordPayment, recordRefund } from "#server/domains/payments/ledger/ledger";
import { SANDBOX_MIGRATIONS } from "#server/providers/payments/sandbox/migrations";
import { createSandboxProvider } from "#server/providers/payments/sandbox/provider";
import { ENGINES, type Engine } from "#tests/support/databases";
import { notificationDeps, seedPayee, seedSession, TEST_SESSION_SECRET } from "#tests/support/payments";
import { createBackup, restoreBackup, type BackupConfig } from "./backup";
import { BackupFileError, type BackupHeader } from "./format";
import { BackupRefusal } from "./refusal";
import { EVERY_PAYEE_PAYABLE } from "#server/providers/payments/sandbox/pay";

/**
 * Places a database can live for the drill: a DATA_DIR of its own (PGlite), or a PostgreSQL
 * database of its own, created here and dropped afterwards.
 */
function places(engine: Engine) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "sg-backup-drill-"));
  const databases: string[] = [];
  const adminUrl = process.env.DATABASE_URL ?? "";
  return {
    async make(label: string): Promise<BackupConfig> {
      const dataDir = path.join(root, label);
      if (engine === "pglite") return { DATA_DIR: dataDir, DATABASE_URL: undefined, SESSION_SECRET: undefined };
      const name = `sg_backup_drill_${crypto.randomBytes(5).toString("hex")}_${label}`;
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`create database ${name}`);
      await admin.end();
      databases.push(name);
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      return { DATA_DIR: dataDir, DATABASE_URL: url.toString(), SESSION_SECRET: undefined };
    },
    async dispose() {
      fs.rmSync(root, { recursive: true, force: true });
      if (databases.length === 0) return;
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      for (const name of databases) await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

async function open(config: BackupConfig): Promise<{ database: DatabaseHandle; close(): Promise<void> }> {
  if (config.DATABASE_URL) {
    const database = await openPostgres(config.DATABASE_URL);
    return { database, close: () => database.close() };
  }
  return openConfiguredDatabase(config);
}

/** Rows of every table in the app's, the sandbox's and drizzle's schemas, and the ledger's totals per currency and kind. */
async function snapshot(config: BackupConfig) {
  const { database, close } = await open(config);
  try {
    const { db } = database;
    const rowsOf = async <T,>(query: SQL) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;
    const tables = await rowsOf<{ schema: string; name: string }>(
      sql`select table_schema as schema, table_name as name from information_schema.tables
          where table_schema in ('public', 'sandbox', 'drizzle') and table_type = 'BASE TABLE' order by 1, 2`,
    );
    const rows: Record<string, number> = {};
    for (const table of tables) {
      const [row] = await rowsOf<{ n: number }>(sql.raw(`select count(*)::int as n from "${table.schema}"."${table.name}"`));
      rows[`${table.schema}.${table.name}`] = row!.n;
    }
    // Sums as text: bigint sums, compared exactly.
    const ledger = await rowsOf<Record<string, unknown>>(
      sql`select currency, kind, count(*)::int as entries, sum(gross)::text as gross, sum(provider_fee)::text as provider_fee,
                 sum(platform_fee)::text as platform_fee, sum(net)::text as net
          from ledger_entries group by currency, kind order by currency, kind`,
    );
    return { rows, ledger };
  } finally {
    await close();
  }
}

/** True when nothing was ever put there: no PGlite folder (opening one would make it), or no table in PostgreSQL. */
async function holdsNoDatabase(config: BackupConfig): Promise<boolean> {
  if (!config.DATABASE_URL) return !fs.existsSync(path.join(config.DATA_DIR, "pglite"));
  const client = new pg.Client({ connectionString: config.DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(`select count(*)::int as n from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema')`);
    return rows[0]!.n === 0;
  } finally {
    await client.end();
  }
}

/** Payments in two currencies, refunds, notifications with their mail, bio pages and a profile photo, made the product's way. */
async function fill(config: BackupConfig): Promise<void> {
  const { database, close } = await open(config);
  const sandbox = createSandboxProvider({
    db: database.db,
    config: { PUBLIC_ORIGIN: "http://app.test" },
    sessionSecret: TEST_SESSION_SECRET,
    whyPayeeCannotBePaid: EVERY_PAYEE_PAYABLE,
    fetch: async () => new Response(null, { status: 204 }),
  });
  try {
    await database.migrate([SANDBOX_MIGRATIONS]);
    const db = database.db;
    const payees = [await seedPayee(db, sandbox), await seedPayee(db, sandbox)];
    let n = 0;
    for (const payee of payees) {
      for (const currency of ["usd", "eur"]) {
        for (let i = 0; i < 4; i++) {
          n++;
          const amount = 1_000 + n * 137;
          const s = await seedSession(db, payee, { amount, platformFee: n * 11 });
          await db.update(sponsorSessions).set({ currency }).where(eq(sponsorSessions.id, s.sessionId));
          await recordPayment(db, { sessionId: s.sessionId, paymentIntentId: s.paymentIntentId, gross: amount, providerFee: 30 + n, platformFee: n * 11, currency });
          if (i === 0) {
            await db.insert(refundRequests).values({ sessionId: s.sessionId, status: "succeeded", requestedBy: payee.uid });
            await recordRefund(db, { sessionId: s.sessionId, paymentIntentId: s.paymentIntentId, amount, currency, payment: { gross: amount, platformFee: n * 11 } });
          }
        }
      }
      await sendNotification(db, { uid: payee.uid, kind: "general", title: "You were tipped", message: "Thank you!" }, notificationDeps(db));
    }
    const photoId = crypto.randomBytes(16).toString("hex");
    await db.insert(photos).values({ id: photoId, uid: payees[0]!.uid });
    await db.insert(photoVariants).values({ photoId, size: 96, format: "webp", bytes: crypto.randomBytes(2_000) });
  } finally {
    await sandbox.close();
    await close();
  }
}

describe.each(ENGINES)("backup and restore drill on %s", (engine) => {
  const place = places(engine);
  let source: BackupConfig;
  let backupFile: string;
  let before: Awaited<ReturnType<typeof snapshot>>;
  const secret = "generated-session-secret-of-the-source-process\n";

  beforeAll(async () => {
    source = await place.make("source");
    await fill(source);
    fs.mkdirSync(source.DATA_DIR, { recursive: true });
    fs.writeFileSync(path.join(source.DATA_DIR, "session-secret"), secret);
    before = await snapshot(source);
    backupFile = (await createBackup(source)).file;
  }, 120_000);
  afterAll(() => place.dispose());

  it("restores into an empty database every row of every table and the ledger's totals per currency exactly, and the session secret", async () => {
    expect(before.rows["public.ledger_entries"]).toBe(20);
    expect(before.rows["public.notifications"]).toBe(2);
    expect(before.rows["public.bio_pages"]).toBe(2);
    expect(before.rows["public.photo_variants"]).toBe(1);
    expect(before.rows["sandbox.sandbox_accounts"]).toBe(2);
    expect(before.rows["drizzle.__drizzle_migrations"]).toBeGreaterThan(0);
    expect(before.ledger.map((row) => `${String(row.currency)} ${String(row.kind)}`)).toEqual(["eur payment", "eur refund", "usd payment", "usd refund"]);

    const target = await place.make("target");
    const done = await restoreBackup(target, backupFile);
    expect(await snapshot(target)).toEqual(before);
    expect(fs.readFileSync(path.join(target.DATA_DIR, "session-secret"), "utf8")).toBe(secret);
    expect(done.header.migrations.__drizzle_migrations?.lastTag).toMatch(/^\d{4}_/);
  }, 120_000);

  it("refuses to restore over a database that holds data without --force, and changes nothing", async () => {
    const other = await place.make("other");
    const { database, close } = await open(other);
    const sandbox = createSandboxProvider({ db: database.db, config: { PUBLIC_ORIGIN: "http://app.test" }, sessionSecret: TEST_SESSION_SECRET, whyPayeeCannotBePaid: EVERY_PAYEE_PAYABLE, fetch: async () => new Response(null, { status: 204 }) });
    try {
      await database.migrate([SANDBOX_MIGRATIONS]);
      await seedPayee(database.db, sandbox);
    } finally {
      await sandbox.close();
      await close();
    }
    const untouched = await snapshot(other);
    await expect(restoreBackup(other, backupFile)).rejects.toThrow(BackupRefusal);
    await expect(restoreBackup(other, backupFile)).rejects.toThrow(/run again with --force/i);
    expect(await snapshot(other)).toEqual(untouched);
  }, 120_000);

  it("refuses a truncated or damaged backup file with a clear message, and changes nothing", async () => {
    const target = await place.make("damaged");
    const bytes = fs.readFileSync(backupFile);
    const truncated = `${backupFile}.truncated`;
    fs.writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length * 0.7)));
    const flipped = Buffer.from(bytes);
    flipped[flipped.length - 100] = flipped[flipped.length - 100]! ^ 0xff;
    const damaged = `${backupFile}.damaged`;
    fs.writeFileSync(damaged, flipped);

    await expect(restoreBackup(target, truncated)).rejects.toThrow(BackupFileError);
    await expect(restoreBackup(target, truncated)).rejects.toThrow(/truncated.*Nothing was changed/);
    await expect(restoreBackup(target, damaged)).rejects.toThrow(/does not match the checksum.*Nothing was changed/);
    expect(await holdsNoDatabase(target)).toBe(true);
    expect(fs.existsSync(path.join(target.DATA_DIR, "session-secret"))).toBe(false);
  }, 120_000);

  it("refuses a backup made by a newer release (a migration this code does not know), and changes nothing", async () => {
    const target = await place.make("newer");
    const bytes = fs.readFileSync(backupFile);
    const firstEnd = bytes.indexOf(0x0a);
    const headerEnd = bytes.indexOf(0x0a, firstEnd + 1);
    const header = JSON.parse(bytes.subarray(firstEnd + 1, headerEnd).toString("utf8")) as BackupHeader;
    const last = header.migrations.__drizzle_migrations!;
    header.migrations.__drizzle_migrations = { count: last.count + 1, lastMillis: last.lastMillis + 86_400_000, lastTag: null };
    const newer = `${backupFile}.newer`;
    fs.writeFileSync(newer, Buffer.concat([bytes.subarray(0, firstEnd + 1), Buffer.from(`${JSON.stringify(header)}\n`), bytes.subarray(headerEnd + 1)]));

    await expect(restoreBackup(target, newer)).rejects.toThrow(/made by a newer Sponsorgrid.*nothing was changed/);
    expect(await holdsNoDatabase(target)).toBe(true);
  });

  if (engine === "pglite") {
    it("refuses to back up or restore while a server holds the data folder, naming its pid", async () => {
      const lock = acquireDataDirLock(source.DATA_DIR);
      try {
        await expect(createBackup(source, { out: path.join(os.tmpdir(), `sg-never-${process.pid}.backup`) })).rejects.toThrow(
          new RegExp(`The server is running on this data folder \\(pid ${process.pid}\\)\\. Stop it first`),
        );
        await expect(restoreBackup(source, backupFile, { force: true })).rejects.toThrow(/The server is running on this data folder/);
      } finally {
        lock.release();
      }
    });
  }
});
