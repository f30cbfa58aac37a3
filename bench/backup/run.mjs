// Backup and restore time for 100,000 payments, on the embedded database and on PostgreSQL, with
// the commands a release has.
//
//   flock /tmp/bench.lock node bench/backup/run.mjs      # BENCH_RELEASE=DIR to reuse a built release
//
// Each engine: `npm run seed` on a fresh database (migrations, tags, directory, demo accounts),
// then BENCH_PAYMENTS (default 100,000) tips to the demo creator's page written by SQL as the
// payment handlers leave them — a completed sponsor session and its ledger payment, a third in
// euros, every tenth refunded (a refund entry too) — then `node server.js backup` and `node
// server.js restore` in a release (scripts/release.sh, built first unless BENCH_RELEASE names one)
// into an empty database, each as an operator runs it: from the release folder, with only node,
// pg_dump, pg_restore and flock on PATH (wall time, process start included; the command's own
// figure beside it). The restored database must hold the same sessions and the same ledger sums
// per currency, or the run fails. PostgreSQL: BENCH_DATABASE_URL's server (default
// postgres://postgres@127.0.0.1:5432), databases sg_bench_backup_src and _dst, emptied first.
// See bench/README.md ("Backup and restore").
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { emptyPostgres } from "../lib/requests.mjs";

const ROOT = path.resolve(import.meta.dirname, "../..");
const PAYMENTS = Number(process.env.BENCH_PAYMENTS ?? 100_000);
const SERVER = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432";

const FILL = `
with page as (select uid, id from bio_pages order by id limit 1),
account as (select coalesce((select provider_account_id from connected_accounts limit 1), 'acct_bench') as id)
insert into sponsor_sessions (id, kind, provider, provider_checkout_id, poster_uid, bio_page_id, destination_account_id, amount, currency,
  platform_fee, sponsor_email, message, supporter_name, payment_intent_id, status, created, updated_at)
select 'ss_bench_' || g, 'tip', 'sandbox', 'cs_bench_' || g, page.uid, page.id, account.id, 500 + (g * 37) % 20000,
  case when g % 3 = 0 then 'eur' else 'usd' end, ((500 + (g * 37) % 20000) / 20), 'fan' || g || '@sponsor.example',
  'Thank you for the work, from supporter number ' || g, 'Supporter ' || g, 'pi_bench_' || g,
  case when g % 10 = 0 then 'refunded' else 'completed' end, now() - (g || ' minutes')::interval, now()
from generate_series(1, ${PAYMENTS}) g, page, account;
insert into ledger_entries (session_id, kind, gross, provider_fee, platform_fee, net, currency, provider_reference, created)
select id, 'payment', amount, amount * 29 / 1000 + 30, platform_fee, amount - platform_fee, currency, payment_intent_id, created
from sponsor_sessions where id like 'ss_bench_%';
insert into ledger_entries (session_id, kind, gross, provider_fee, platform_fee, net, currency, provider_reference, created)
select id, 'refund', -amount, 0, -platform_fee, -amount + platform_fee, currency, payment_intent_id, created + interval '1 day'
from sponsor_sessions where id like 'ss_bench_%' and status = 'refunded';
`;

const CHECK = `select currency, count(*)::int as entries, sum(gross)::text as gross, sum(net)::text as net
  from ledger_entries group by currency order by currency`;

function timed(file, args, options) {
  const started = performance.now();
  const result = spawnSync(file, args, { ...options, encoding: "utf8" });
  const wall = (performance.now() - started) / 1000;
  if (result.status !== 0) throw new Error(`${file} ${args.join(" ")} failed:\n${result.stdout}\n${result.stderr}`);
  const own = /in ([\d.]+) s/.exec(result.stdout)?.[1];
  return { wall, own: own ? Number(own) : null, stdout: result.stdout };
}

const seed = (env) => timed("npm", ["run", "--silent", "seed"], { cwd: ROOT, env: { ...process.env, ...env } });

/** A release to run, and a PATH of node, pg_dump, pg_restore and flock (the data folder's lock) only: what the image has. */
function prepareRelease(tmp) {
  const tools = path.join(tmp, "bin");
  fs.mkdirSync(tools);
  fs.symlinkSync(process.execPath, path.join(tools, "node"));
  for (const tool of ["pg_dump", "pg_restore", "flock"]) {
    fs.symlinkSync(spawnSync("sh", ["-c", `command -v ${tool}`], { encoding: "utf8" }).stdout.trim(), path.join(tools, tool));
  }
  if (process.env.BENCH_RELEASE) return { dir: path.resolve(process.env.BENCH_RELEASE), tools };
  const dir = path.join(tmp, "release");
  const built = spawnSync("bash", [path.join(ROOT, "scripts/release.sh"), dir], { encoding: "utf8" });
  if (built.status !== 0) throw new Error(`scripts/release.sh failed:\n${built.stdout}\n${built.stderr}`);
  return { dir, tools };
}

const inRelease = (release, args, env) =>
  timed(process.execPath, ["server.js", ...args], { cwd: release.dir, env: { PATH: release.tools, NODE_ENV: "production", DOTENV: "off", ...env } });

async function onPglite(dataDir, use) {
  const client = new PGlite(path.join(dataDir, "pglite"));
  try {
    return await use((text) => client.exec(text).then((results) => results.at(-1)?.rows ?? []));
  } finally {
    await client.query("CHECKPOINT");
    await client.close();
  }
}

async function onPostgres(url, use) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(async (text) => {
      const results = await client.query(text);
      return (Array.isArray(results) ? results.at(-1) : results).rows;
    });
  } finally {
    await client.end();
  }
}

async function run(engine, release) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "sg-bench-backup-"));
  const source = { DATA_DIR: path.join(tmp, "source"), PAYMENT_PROVIDER: "sandbox" };
  const target = { DATA_DIR: path.join(tmp, "target"), PAYMENT_PROVIDER: "sandbox" };
  if (engine === "postgres") {
    source.DATABASE_URL = `${SERVER}/sg_bench_backup_src`;
    target.DATABASE_URL = `${SERVER}/sg_bench_backup_dst`;
    await emptyPostgres(source.DATABASE_URL);
    await emptyPostgres(target.DATABASE_URL);
  } else {
    source.DATABASE_URL = "";
    target.DATABASE_URL = "";
  }
  const on = (config, use) => (engine === "postgres" ? onPostgres(config.DATABASE_URL, use) : onPglite(config.DATA_DIR, use));
  try {
    seed(source);
    const fillStarted = performance.now();
    const before = await on(source, async (query) => {
      await query(FILL);
      return query(CHECK);
    });
    const fill = (performance.now() - fillStarted) / 1000;
    const file = path.join(tmp, "bench.backup");
    const backup = inRelease(release, ["backup", "--out", file], source);
    const restore = inRelease(release, ["restore", file], target);
    const after = await on(target, (query) => query(CHECK));
    if (JSON.stringify(after) !== JSON.stringify(before)) throw new Error(`restored ledger differs: ${JSON.stringify(before)} vs ${JSON.stringify(after)}`);
    const payments = before.reduce((sum, row) => sum + row.entries, 0);
    return { engine, ledgerEntries: payments, fill, bytes: fs.statSync(file).size, backup, restore };
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

const engines = (process.env.BENCH_ENGINES ?? "pglite,postgres").split(",");
const work = fs.mkdtempSync(path.join(os.tmpdir(), "sg-bench-backup-release-"));
const release = prepareRelease(work);
process.on("exit", () => fs.rmSync(work, { recursive: true, force: true }));
console.log(`uptime before: ${os.loadavg().map((n) => n.toFixed(2)).join(" ")} (${os.cpus().length} cores); ${PAYMENTS} payments; release ${release.dir}`);
for (const engine of engines) {
  const r = await run(engine, release);
  const s = (t) => `${t.wall.toFixed(1)} s${t.own === null ? "" : ` (command's own ${t.own.toFixed(1)} s)`}`;
  console.log(
    `${engine}: ${r.ledgerEntries} ledger entries (filled in ${r.fill.toFixed(1)} s); backup file ${(r.bytes / 1024 / 1024).toFixed(1)} MiB; ` +
      `backup ${s(r.backup)}; restore into an empty database ${s(r.restore)}; restored ledger sums per currency identical`,
  );
}
console.log(`uptime after: ${os.loadavg().map((n) => n.toFixed(2)).join(" ")}`);
