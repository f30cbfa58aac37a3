import { sql } from "drizzle-orm";
import { migrate } from "drizzle-orm/pglite/migrator";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "#server/platform/db/client";
import { MIGRATIONS_DIR } from "#server/platform/db/migrate";
import { createEmptyDatabase, ENGINES, type TestDatabase } from "#tests/support/databases";
import { SANDBOX_MIGRATIONS } from "./migrations";
import { createSandboxProvider } from "./provider";
import { EVERY_PAYEE_PAYABLE } from "#server/providers/payments/sandbox/pay";

/** The tables a release before the sandbox's own schema had in public. */
const SANDBOX_TABLES_IN_PUBLIC = [
  "sandbox_accounts", "sandbox_checkouts", "sandbox_customers", "sandbox_events", "sandbox_one_time_purchases",
  "sandbox_payments", "sandbox_prices", "sandbox_pro_checkouts", "sandbox_refunds", "sandbox_subscriptions",
];
/** What the sandbox's chain makes now (sandbox_disputes since its 0001, sandbox_transfers since its 0002, memberships' since its 0003). */
const SANDBOX_TABLES = [
  ...SANDBOX_TABLES_IN_PUBLIC,
  "sandbox_disputes",
  "sandbox_transfers",
  "sandbox_membership_checkouts",
  "sandbox_membership_customers",
  "sandbox_membership_invoices",
  "sandbox_membership_subscriptions",
].sort();

async function rows<T>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

const tablesIn = async (db: Db, schema: string) =>
  (await rows<{ table_name: string }>(db, sql`select table_name from information_schema.tables where table_schema = ${schema} order by table_name`)).map((t) => t.table_name);

/** The product's migrations as a release before the sandbox had its own schema shipped them (up to 0021). */
function productMigrationsBeforeSandboxSchema(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sg-migrations-"));
  fs.cpSync(MIGRATIONS_DIR, dir, { recursive: true });
  const journalPath = path.join(dir, "meta/_journal.json");
  const journal = JSON.parse(fs.readFileSync(journalPath, "utf8")) as { entries: { tag: string }[] };
  const cut = journal.entries.findIndex((entry) => entry.tag.endsWith("_sandbox_schema"));
  expect(cut).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, cut);
  fs.writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

describe.each(ENGINES)("the sandbox's own migrations on %s", (engine) => {
  describe("a new database", () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await createEmptyDatabase(engine);
    });
    afterAll(() => database.dispose());

    it("gets the sandbox's tables in the schema `sandbox` only with its chain, and a second run changes nothing", async () => {
      await database.migrate();
      expect(await tablesIn(database.db, "sandbox")).toEqual([]);
      await database.migrate([SANDBOX_MIGRATIONS]);
      await database.migrate([SANDBOX_MIGRATIONS]);
      expect(await tablesIn(database.db, "sandbox")).toEqual(SANDBOX_TABLES);
      expect((await tablesIn(database.db, "public")).filter((name) => name.startsWith("sandbox_"))).toEqual([]);
    });
  });

  describe("a database from before that never used the sandbox", () => {
    let database: TestDatabase;
    let oldMigrations: string;
    beforeAll(async () => {
      database = await createEmptyDatabase(engine);
      oldMigrations = productMigrationsBeforeSandboxSchema();
      await migrate(database.db as Parameters<typeof migrate>[0], { migrationsFolder: oldMigrations });
    });
    afterAll(async () => {
      fs.rmSync(oldMigrations, { recursive: true, force: true });
      await database.dispose();
    });

    it("loses its empty sandbox tables to the product's chain, and gets them back from the sandbox's", async () => {
      expect((await tablesIn(database.db, "public")).filter((name) => name.startsWith("sandbox_"))).toEqual(SANDBOX_TABLES_IN_PUBLIC);
      await database.migrate();
      expect((await tablesIn(database.db, "public")).filter((name) => name.startsWith("sandbox_"))).toEqual([]);
      expect(await tablesIn(database.db, "sandbox")).toEqual([]);
      await database.migrate([SANDBOX_MIGRATIONS]);
      expect(await tablesIn(database.db, "sandbox")).toEqual(SANDBOX_TABLES);
    });
  });

  describe("a database from before, with test payments in public", () => {
    let database: TestDatabase;
    let oldMigrations: string;
    beforeAll(async () => {
      database = await createEmptyDatabase(engine);
      oldMigrations = productMigrationsBeforeSandboxSchema();
      // Both engines' drizzle migrators are the same function over the dialect: PGlite's runs on either.
      await migrate(database.db as Parameters<typeof migrate>[0], { migrationsFolder: oldMigrations });
      await database.db.execute(sql`insert into sandbox_accounts (id, email, account_type, uid, charges_enabled, payouts_enabled, details_submitted)
        values ('acct_old1', 'maya@example.com', 'individual', 'u_old', true, true, true)`);
      await database.db.execute(sql`insert into sandbox_checkouts (id, account_id, product_name, amount, currency, success_url, cancel_url, expires_at)
        values ('cs_old1', 'acct_old1', 'Tip', 2500, 'usd', 'http://app.test/s', 'http://app.test/c', now() + interval '1 day')`);
      await database.db.execute(sql`insert into sandbox_events (id, type, payload) values ('evt_old1', 'account.updated', '{"a": 1}'::jsonb)`);
    });
    afterAll(async () => {
      fs.rmSync(oldMigrations, { recursive: true, force: true });
      await database.dispose();
    });

    it("keeps every sandbox row, moved into the schema `sandbox`, whatever the provider", async () => {
      // A start with Stripe: the product's chain alone moves the tables out of the product's schema.
      await database.migrate();
      expect((await tablesIn(database.db, "public")).filter((name) => name.startsWith("sandbox_"))).toEqual([]);
      // Moved as they were; the sandbox's own chain adds the tables made since (sandbox_disputes, sandbox_transfers).
      expect(await tablesIn(database.db, "sandbox")).toEqual(SANDBOX_TABLES_IN_PUBLIC);
      const [counts] = await rows<{ accounts: number; checkouts: number; events: number }>(
        database.db,
        sql`select (select count(*)::int from sandbox.sandbox_accounts) as accounts,
          (select count(*)::int from sandbox.sandbox_checkouts) as checkouts,
          (select count(*)::int from sandbox.sandbox_events) as events`,
      );
      expect(counts).toEqual({ accounts: 1, checkouts: 1, events: 1 });
    });

    it("then, with the sandbox as provider, adopts the moved tables instead of making them again, and reads the old rows", async () => {
      await database.migrate([SANDBOX_MIGRATIONS]);
      await database.migrate([SANDBOX_MIGRATIONS]);
      const recorded = await rows<{ count: number }>(database.db, sql`select count(*)::int as count from drizzle.__drizzle_migrations_sandbox`);
      expect(recorded[0]?.count).toBe(fs.readdirSync(SANDBOX_MIGRATIONS.folder).filter((file) => file.endsWith(".sql")).length);
      const sandbox = createSandboxProvider({ db: database.db, config: { PUBLIC_ORIGIN: "http://app.test" }, sessionSecret: "a-session-secret-of-at-least-32-characters", whyPayeeCannotBePaid: EVERY_PAYEE_PAYABLE });
      expect(await sandbox.readAccount("acct_old1")).toMatchObject({ accountId: "acct_old1", chargesEnabled: true, payoutsEnabled: true, detailsSubmitted: true });
      await sandbox.close();
    });
  });
});
