/**
 * A month of membership renewals at scale, on either engine: how long the sandbox's test clock and
 * the one writer take to renew every membership once, renewals per second, and proof that nothing
 * was charged twice.
 *
 *   flock /tmp/bench.lock env NODE_ENV=production node --import tsx bench/membership-renewals/run.ts pglite
 *   flock /tmp/bench.lock env NODE_ENV=production BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/sg_bench_renewals \
 *     node --import tsx bench/membership-renewals/run.ts postgres
 *   # MEMBERS=100000 (default) BATCH=… (the clock's batch size) SAMPLE=1000 (provider reads checked)
 *
 * In one process, as the server wires them: the database (a fresh PGlite folder, or a PostgreSQL
 * database it empties), the sandbox provider, its outbox delivering each event straight into our
 * webhook intake (`parseWebhook` then `receivePaymentEvent`, as the webhook route does), so every
 * `membership.changed` is converged by the one writer (server/domains/memberships/).
 *
 * Seeding: one membership is made along the real path (a creator with an onboarded sandbox
 * account, `createMembershipCheckout`, the sandbox's `payMembershipCheckout`, its events delivered until
 * the writer has it active with its first period paid). That membership is the template: its rows
 * on both sides (ours: the membership, its first period's session and ledger row; the sandbox's:
 * every row of the `sandbox` schema that names it, its subscription, its customer or its checkout,
 * and the rows those name in turn) are copied MEMBERS − 1 times by one INSERT … SELECT per table
 * over generate_series, each copy's ids suffixed, so the harness needs no knowledge of the
 * sandbox's own tables. Every copy is then due at the same instant, the template's period end.
 *
 * Measured: `advanceSandboxMemberships(db, { until, batchSize }, now)` to just past that period end
 * (the provider side: renew every subscription, store its events), then the events' delivery
 * until none is left (our side: the writer converges each membership and records its period).
 * Checked: every membership has exactly one new paid period (sponsor session of kind membership),
 * no session has two ledger payment rows, and, for SAMPLE subscriptions read through the port
 * (`readMembershipState`), the provider has exactly one new paid invoice whose payment intent is
 * that session's.
 *
 * Needs the sandbox's test clock (`advanceSandboxMemberships`, exported by a file of
 * server/providers/payments/sandbox/) and the writer's handler; without them it says so and stops.
 * See bench/README.md ("Membership renewals").
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { sql } from "drizzle-orm";
import pg from "pg";
import pino from "pino";
import { openPglite, openPostgres, type DatabaseHandle } from "#server/platform/db/client";
import type { Db } from "#server/platform/db/client";
import { bioPages, connectedAccounts, memberships, membershipTiers, profiles, user } from "#server/platform/db/schema";
import { createMailer } from "#server/platform/email/mailer";
import { SANDBOX_MIGRATIONS } from "#server/providers/payments/sandbox/migrations";
import { createSandboxProvider, type SandboxProvider } from "#server/providers/payments/sandbox/provider";
import { EVERY_PAYEE_PAYABLE } from "#server/providers/payments/sandbox/pay";
import { payMembershipCheckout } from "#server/providers/payments/sandbox/membership-pay";
import { receivePaymentEvent } from "#server/features/payment-webhooks/intake";
import type { WebhookDeps } from "#server/features/payment-webhooks/types";
import { unsubscribeSigningKey } from "#server/domains/notifications/unsubscribe-token";
import { memberLinkKey } from "#server/domains/memberships/member-link";

type Advance = (db: Db, options: { until: Date; batchSize?: number }, now: Date) => Promise<unknown>;

const ROOT = path.resolve(import.meta.dirname, "../..");
const ENGINE = process.argv[2] === "postgres" ? "postgres" : "pglite";
const MEMBERS = Number(process.env.MEMBERS ?? 100_000);
const BATCH = process.env.BATCH ? Number(process.env.BATCH) : undefined;
const SAMPLE = Number(process.env.SAMPLE ?? 1_000);
const PG_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/sg_bench_renewals";
const SECRET = "bench-only-session-secret-0123456789abcdef";
const ORIGIN = "http://127.0.0.1:9";
const logger = pino({ level: "warn" });
const log = (line: string) => console.log(line);
const seconds = (ms: number) => (ms / 1000).toFixed(1);

/** The sandbox's test clock, wherever in the sandbox's folder it is exported from; null while it is not built. */
async function findClock(): Promise<Advance | null> {
  const dir = path.join(ROOT, "server/providers/payments/sandbox");
  for (const file of fs.readdirSync(dir).filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))) {
    if (!/export\s+(async\s+)?(function|const)\s+advanceSandboxMemberships\b/.test(fs.readFileSync(path.join(dir, file), "utf8"))) continue;
    const found = (await import(pathToFileURL(path.join(dir, file)).href)) as { advanceSandboxMemberships?: Advance };
    if (typeof found.advanceSandboxMemberships === "function") return found.advanceSandboxMemberships;
  }
  return null;
}

async function openDatabase(work: string): Promise<DatabaseHandle> {
  if (ENGINE === "pglite") {
    // The server makes its data folder before opening the database in it; so does the bench.
    fs.mkdirSync(path.join(work, "data"), { recursive: true });
    return openPglite(path.join(work, "data"));
  }
  const name = new URL(PG_URL).pathname.slice(1);
  const admin = new URL(PG_URL);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  await client.query(`drop database if exists ${name} with (force)`);
  await client.query(`create database ${name}`);
  await client.end();
  return openPostgres(PG_URL);
}

const rows = async <T>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> => ((await db.execute(query)) as unknown as { rows: T[] }).rows;
const count = async (db: Db, query: ReturnType<typeof sql>) => Number((await rows<{ n: number | string }>(db, query))[0]?.n ?? 0);

/** Delivers every stored event (and those the deliveries store in turn) until none is due. */
async function deliverAll(sandbox: SandboxProvider): Promise<number> {
  let delivered = 0;
  for (;;) {
    const sent = await sandbox.deliverPendingSandboxEvents();
    if (sent === 0) return delivered;
    delivered += sent;
  }
}

/** The template: one membership made and paid along the real path, converged by the writer. */
async function template(db: Db, sandbox: SandboxProvider) {
  const uid = "bench-member-creator";
  await db.insert(user).values({ id: uid, name: "Bench Creator", email: "bench-creator@bench.example", emailVerified: true });
  await db.insert(profiles).values({ uid, paymentsEnabled: true });
  const { accountId } = await sandbox.createConnectedAccount({ idempotencyKey: `account_${uid}`, email: "bench-creator@bench.example", accountType: "individual", uid });
  await sandbox.completeOnboarding(accountId, { legalName: "Bench Creator", country: "US", bankAccount: "000123456789" });
  await db.insert(connectedAccounts).values({ uid, stateToken: `state_${uid}`, providerAccountId: accountId, completed: true });
  await db.insert(bioPages).values({ id: "benchpage", uid, customEnding: "benchmembers", name: "Bench Members" });
  await db.insert(membershipTiers).values({ id: "benchtier", bioPageId: "benchpage", name: "Regular", monthlyPrice: 500 });
  const membershipId = "benchmem";
  await db.insert(memberships).values({
    id: membershipId,
    tierId: "benchtier",
    bioPageId: "benchpage",
    creatorUid: uid,
    memberEmail: "benchmem@bench.example",
    provider: "sandbox",
    destinationAccountId: accountId,
    amount: 500,
  });
  const checkout = await sandbox.createMembershipCheckout({
    idempotencyKey: `membership_checkout_${membershipId}`,
    membershipId,
    destinationAccountId: accountId,
    amount: 500,
    currency: "usd",
    interval: "month",
    applicationFeePercent: 10,
    productName: "Regular membership · Bench Members",
    memberEmail: "benchmem@bench.example",
    successUrl: `${ORIGIN}/welcome`,
    cancelUrl: `${ORIGIN}/benchmembers`,
  });
  await db.update(memberships).set({ providerCheckoutId: checkout.checkoutId }).where(sql`${memberships.id} = ${membershipId}`);
  const paid = await payMembershipCheckout(db, checkout.checkoutId, { number: "4242 4242 4242 4242", expiry: "12/34", cvc: "123", postalCode: "94107", email: "benchmem@bench.example" }, new Date());
  if (paid.kind !== "SUCCESS") throw new Error(`the sandbox did not take the membership checkout's payment: ${paid.message}`);
  await deliverAll(sandbox);
  const [row] = await rows<{ status: string; subscription: string | null; customer: string | null; period_end: string | null }>(
    db,
    sql`select status, provider_subscription_id as subscription, provider_customer_id as customer, current_period_end as period_end from memberships where id = ${membershipId}`,
  );
  const sessions = await rows<{ id: string; pi: string | null }>(db, sql`select id, payment_intent_id as pi from sponsor_sessions where membership_id = ${membershipId}`);
  if (row?.status !== "active" || !row.subscription || !row.period_end || sessions.length !== 1) {
    throw new Error(
      `the writer did not converge the template membership (status ${row?.status}, subscription ${row?.subscription}, ${sessions.length} paid periods): is server/features/payment-webhooks/handlers/membership-changed.ts still the scaffolding?`,
    );
  }
  return { membershipId, checkoutId: checkout.checkoutId, subscriptionId: row.subscription, customerId: row.customer, periodEnd: new Date(row.period_end), session: sessions[0]! };
}

/** Every row of the `sandbox` schema that names one of `ids`, and the rows those name in turn: the template's provider side. */
async function sandboxRowsOf(db: Db, ids: Set<string>): Promise<Map<string, string[]>> {
  const tables = (await rows<{ table_name: string }>(
    db,
    sql`select c.table_name from information_schema.columns c where c.table_schema = 'sandbox' and c.column_name = 'id' and c.table_name <> 'sandbox_events' and c.table_name <> 'sandbox_accounts'`,
  )).map((r) => r.table_name);
  const found = new Map<string, string[]>();
  for (let round = 0; round < 6; round++) {
    const before = ids.size;
    for (const table of tables) {
      const names = [...ids].map((id) => sql`position(${id} in row_to_json(t)::text) > 0`);
      const matched = await rows<{ id: string; json: string }>(db, sql`select t.id::text as id, row_to_json(t)::text as json from ${sql.raw(`sandbox."${table}"`)} t where ${sql.join(names, sql` or `)}`);
      if (matched.length > 0) found.set(table, matched.map((m) => m.id));
      for (const m of matched) {
        ids.add(m.id);
        // The sandbox's other unique ids in the row (a payment's charge id…) are the template's too, each copy its own; the creator's account is shared.
        for (const other of m.json.match(/\b[a-z]+_sbx_[A-Za-z0-9]+\b/g) ?? []) if (!other.startsWith("acct_")) ids.add(other);
      }
    }
    if (ids.size === before) return found;
  }
  return found;
}

/** The sandbox tables in an order that copies a row's parents (its foreign keys' tables) before it. */
async function parentsFirst(db: Db, tables: string[]): Promise<string[]> {
  const edges = await rows<{ child: string; parent: string }>(
    db,
    sql`select c.relname as child, p.relname as parent from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_class p on p.oid = k.confrelid where k.contype = 'f' and k.connamespace = 'sandbox'::regnamespace`,
  );
  const ordered: string[] = [];
  const visit = (table: string, seen: Set<string>) => {
    if (ordered.includes(table) || seen.has(table)) return;
    seen.add(table);
    for (const edge of edges) if (edge.child === table && edge.parent !== table && tables.includes(edge.parent)) visit(edge.parent, seen);
    ordered.push(table);
  };
  for (const table of tables) visit(table, new Set());
  return ordered;
}

/** The JSON text of a row with every id of `ids` suffixed by the copy's number `g` (longest first, so no id is cut inside another). */
function suffixed(ids: Set<string>): ReturnType<typeof sql> {
  let text = sql`row_to_json(t)::text`;
  for (const id of [...ids].sort((a, b) => b.length - a.length)) text = sql`replace(${text}, ${id}, ${id} || '_c' || g)`;
  return text;
}

/** `copies` copies of the rows `where` selects in `table`, their ids suffixed; a uuid id is made anew from the old one and the copy's number. */
async function copyRows(db: Db, table: string, where: ReturnType<typeof sql>, ids: Set<string>, copies: number, uuidId = false) {
  const override = uuidId ? sql` || jsonb_build_object('id', md5(t.id::text || '_c' || g)::uuid)` : sql``;
  await db.execute(
    sql`insert into ${sql.raw(table)} select (jsonb_populate_record(null::${sql.raw(table)}, ${suffixed(ids)}::jsonb${override})).* from ${sql.raw(table)} t, generate_series(1, ${copies}) g where ${where}`,
  );
}

async function main() {
  const advance = await findClock();
  if (!advance) {
    log("The sandbox's test clock is not built: no file of server/providers/payments/sandbox/ exports advanceSandboxMemberships(db, { until, batchSize? }, now). Nothing measured.");
    process.exitCode = 2;
    return;
  }
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "sg-bench-renewals-"));
  const handle = await openDatabase(work);
  const db = handle.db;
  const sandbox = createSandboxProvider({
    db,
    config: { PUBLIC_ORIGIN: ORIGIN },
    sessionSecret: SECRET,
    logger,
    whyPayeeCannotBePaid: EVERY_PAYEE_PAYABLE,
    // The webhook route's work, without HTTP: the signed body checked and taken in.
    fetch: async (_url, init) => {
      const headers = new Headers(init?.headers);
      const parsed = sandbox.parseWebhook(Buffer.from(String(init?.body)), headers.get(sandbox.signatureHeader) ?? undefined);
      if (parsed.kind !== "SUCCESS") return new Response(null, { status: 400 });
      if (!parsed.event) return new Response(null, { status: 204 });
      const taken = await receivePaymentEvent(db, parsed.event, deps);
      return new Response(null, { status: taken.kind === "SUCCESS" ? 204 : 500 });
    },
  });
  const deps: WebhookDeps = {
    provider: sandbox,
    mailer: createMailer({ db, from: "Sponsorgrid <no-reply@bench.example>", logger }),
    site: { appName: "Sponsorgrid", supportEmail: "support@bench.example", publicOrigin: ORIGIN, bioOrigin: ORIGIN },
    unsubscribeKey: unsubscribeSigningKey(SECRET),
    platformFeePercent: 10,
    logger,
    memberLinkKey: memberLinkKey(SECRET),
  };
  try {
    await handle.migrate([SANDBOX_MIGRATIONS]);
    const started = Date.now();
    const t = await template(db, sandbox);
    const ids = new Set([t.membershipId, t.checkoutId, t.subscriptionId, t.session.id, ...(t.customerId ? [t.customerId] : []), ...(t.session.pi ? [t.session.pi] : [])]);
    const provider = await sandboxRowsOf(db, ids);
    const copies = MEMBERS - 1;
    const order = await parentsFirst(db, [...provider.keys()]);
    await db.transaction(async (tx) => {
      for (const table of order) await copyRows(tx, `sandbox."${table}"`, sql`t.id::text in (${sql.join(provider.get(table)!.map((id) => sql`${id}`), sql`, `)})`, ids, copies);
      await copyRows(tx, "memberships", sql`t.id = ${t.membershipId}`, ids, copies);
      await copyRows(tx, "sponsor_sessions", sql`t.id = ${t.session.id}`, ids, copies);
      await copyRows(tx, "ledger_entries", sql`t.session_id = ${t.session.id}`, ids, copies, true);
      // The facts already told about the template (its welcome, its payment), so no copy is welcomed again.
      await copyRows(tx, "money_events", sql`(t.session_id = ${t.session.id} or t.key like ${`membership:${t.membershipId}:%`})`, ids, copies, true);
    });
    const seeded = Date.now();
    const members = await count(db, sql`select count(*)::int as n from memberships where status = 'active'`);
    log(`# A month of membership renewals (${new Date().toISOString()}), ${ENGINE}`);
    log(`${os.cpus().length} × ${os.cpus()[0]?.model}, Node ${process.version}; load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
    log(`${members} active memberships seeded in ${seconds(seeded - started)} s (sandbox tables copied: ${[...provider.keys()].join(", ") || "none"}), all due at ${t.periodEnd.toISOString()}`);

    const before = new Date();
    const periodsBefore = await count(db, sql`select count(*)::int as n from sponsor_sessions where kind = 'membership'`);
    const until = new Date(t.periodEnd.getTime() + 60_000);
    const clockStart = Date.now();
    // The clock reaches a month ahead; its events are stamped now, so the outbox sends them at once.
    await advance(db, { until, ...(BATCH ? { batchSize: BATCH } : {}) }, new Date());
    const clockEnd = Date.now();
    const delivered = await deliverAll(sandbox);
    const end = Date.now();

    const renewals = (await count(db, sql`select count(*)::int as n from sponsor_sessions where kind = 'membership'`)) - periodsBefore;
    const perMembership = await rows<{ renewed: number; n: number }>(
      db,
      sql`select renewed, count(*)::int as n from (select m.id, count(s.id)::int as renewed from memberships m left join sponsor_sessions s on s.membership_id = m.id and s.kind = 'membership' and s.created >= ${before} group by m.id) x group by renewed order by renewed`,
    );
    const twicePaid = await count(db, sql`select count(*)::int as n from (select session_id from ledger_entries where kind = 'payment' group by session_id having count(*) > 1) x`);
    const unpaid = await count(db, sql`select count(*)::int as n from sponsor_sessions s where s.kind = 'membership' and s.created >= ${before} and not exists (select 1 from ledger_entries l where l.session_id = s.id and l.kind = 'payment')`);

    // The provider's side, read through the port as the writer reads it: one new paid invoice per subscription, and it is our session's.
    const sample = await rows<{ subscription: string; pis: string[] | null }>(
      db,
      sql`select m.provider_subscription_id as subscription, array_agg(s.payment_intent_id) filter (where s.id is not null) as pis from memberships m left join sponsor_sessions s on s.membership_id = m.id and s.kind = 'membership' and s.created >= ${before} group by m.id, m.provider_subscription_id order by m.id limit ${SAMPLE}`,
    );
    let providerTwice = 0;
    let providerMismatch = 0;
    for (const { subscription, pis } of sample) {
      const state = await sandbox.readMembershipState(subscription);
      const fresh = state.invoices.filter((invoice) => invoice.status === "paid" && invoice.periodStart >= new Date(t.periodEnd.getTime() - 1_000));
      if (fresh.length !== 1) providerTwice += 1;
      if (fresh.length !== (pis?.length ?? 0) || fresh.some((invoice) => !pis?.includes(invoice.paymentIntentId ?? ""))) providerMismatch += 1;
    }

    log("");
    log("| figure | value |");
    log("|---|---:|");
    log(`| memberships | ${members} |`);
    log(`| test clock (provider side: renew, store events) | ${seconds(clockEnd - clockStart)} s |`);
    log(`| events delivered and converged (our side) | ${delivered} in ${seconds(end - clockEnd)} s |`);
    log(`| total | ${seconds(end - clockStart)} s |`);
    log(`| renewals (new paid periods) | ${renewals} |`);
    log(`| renewals/s | **${(renewals / ((end - clockStart) / 1000)).toFixed(0)}** |`);
    log(`| memberships by new paid periods | ${perMembership.map((r) => `${r.renewed}: ${r.n}`).join(", ")} |`);
    log(`| sessions with two ledger payment rows | ${twicePaid} |`);
    log(`| new periods without a ledger payment row | ${unpaid} |`);
    log(`| provider: subscriptions of ${sample.length} read without exactly one new paid invoice | ${providerTwice} |`);
    log(`| provider: subscriptions of ${sample.length} whose paid invoices are not exactly our sessions' | ${providerMismatch} |`);
    const once = perMembership.length === 1 && perMembership[0]!.renewed === 1;
    log("");
    log(`${once && twicePaid === 0 && unpaid === 0 && providerTwice === 0 && providerMismatch === 0 ? "✓" : "✗"} every membership renewed exactly once, charged once, recorded once`);
    if (!(once && twicePaid === 0 && unpaid === 0 && providerTwice === 0 && providerMismatch === 0)) process.exitCode = 1;
  } finally {
    await sandbox.close().catch(() => {});
    await handle.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

await main();
