// The deal room at scale, for run.mjs (also usable on its own on a stopped server's data):
//   node bench/deals/fill.mjs <DATA_DIR | postgres://…> [deals]
// The database must already be migrated and seeded (start the server on it once).
//
// 100,000 deals between 2,000 creators and 500 sponsors, written set-based (generate_series, one
// INSERT … SELECT per table), as the deal room leaves them: 1–4 versions of the terms each, one
// activity row per move, a thread on about a third of them. The demo creator is the heavy user,
// with 5,000 deals; the other creators share the rest with a long tail (a few hundred for the
// busiest, a handful for most), and so do the sponsors. Recent deals are mostly still proposed,
// old ones mostly ended, as deals age in real use: "Waiting on you" is a few percent of an old
// account's deals and sits at the top of its list.
import { pathToFileURL } from "node:url";
import { tsImport } from "tsx/esm/api";

export const DEAL_COUNT = 100_000;
export const CREATORS = 2_000;
export const SPONSORS = 500;
export const HEAVY_DEALS = 5_000;
export const HEAVY_UID = "demo-creator";
export const HEAVY_EMAIL = "maya@demo.sponsorgrid.example";
export const DEMO_PASSWORD = "sponsorgrid-demo";
const BATCH = 25_000;

/**
 * Opens the database the server uses, as one session (so `setseed` holds for every statement):
 * PostgreSQL by URL through pg, or PGlite in a data folder through the app's own opener.
 * `query(text, values)` answers `{ rows }` on both.
 */
export async function openBenchDb(target) {
  if (target.startsWith("postgres")) {
    const { default: pg } = await import("pg");
    const client = new pg.Client({ connectionString: target });
    await client.connect();
    return { engine: "postgres", query: (text, values) => client.query(text, values), close: () => client.end() };
  }
  const { openPglite } = await tsImport("../../server/platform/db/client.ts", import.meta.url);
  const { sql } = await tsImport("drizzle-orm", import.meta.url);
  const handle = await openPglite(target);
  // PGlite's client is Drizzle's; raw SQL with no parameters is all the fill needs.
  return {
    engine: "pglite",
    query: async (text, values) => {
      if (values?.length) throw new Error("openBenchDb: PGlite side takes no parameters");
      return handle.db.execute(sql.raw(text));
    },
    close: () => handle.close(),
  };
}

// SQL pieces: the nth creator and sponsor (1-based). Creator 1 is the heavy demo creator,
// sponsors 1 and 2 the demo sponsors, the rest bench accounts made below.
const CREATOR_UID = (n) => `(case when ${n} = 1 then '${HEAVY_UID}' else 'bench-creator-' || lpad((${n} - 1)::text, 4, '0') end)`;
const SPONSOR_UID = (n) => `(case ${n} when 1 then 'demo-sponsor' when 2 then 'demo-sponsor2' else 'bench-sponsor-' || lpad((${n} - 2)::text, 3, '0') end)`;

const PEOPLE = `
insert into "user" (id, name, email, email_verified)
select 'bench-creator-' || lpad(g::text, 4, '0'), 'Bench Creator ' || g, 'bench-creator-' || lpad(g::text, 4, '0') || '@bench.example', true
from generate_series(1, ${CREATORS - 1}) g
union all
select 'bench-sponsor-' || lpad(g::text, 3, '0'), 'Bench Sponsor ' || g, 'bench-sponsor-' || lpad(g::text, 3, '0') || '@bench.example', true
from generate_series(1, ${SPONSORS - 2}) g
on conflict do nothing`;

const PROFILES = `
insert into profiles (uid, name, user_type)
select id,
  case when id like 'bench-creator-%'
    then (array['Lena', 'Omar', 'Sofia', 'Kai', 'Noor', 'Felix', 'Ines', 'Theo', 'Ada', 'Rafa'])[1 + n % 10] || ' '
      || (array['Makes', 'Cooks', 'Plays', 'Builds', 'Travels', 'Reviews', 'Paints', 'Lifts'])[1 + (n / 10) % 8]
    else (array['Northwind', 'Brightleaf', 'Summit', 'Copperline', 'Lumen', 'Oakridge', 'Tidewater', 'Juniper'])[1 + n % 8] || ' '
      || (array['Audio', 'Foods', 'Labs', 'Outfitters', 'Goods', 'Supply'])[1 + (n / 8) % 6]
  end,
  case when id like 'bench-creator-%' then 'creator' else 'sponsor' end
from (select id, substring(id from '\\d+$')::int as n from "user" where id like 'bench-%') people
on conflict do nothing`;

/**
 * One batch of deals, rows first..first+count-1. The inner query draws every random number once
 * per row (`offset 0` keeps PostgreSQL from inlining it and drawing again per reference).
 * Times are whole milliseconds, as the app writes them (a JavaScript Date).
 */
const DEALS_BATCH = (first, count) => `
insert into deals (
  id, origin, opportunity_id, title, creator_uid, sponsor_uid, opened_by, state, waiting_on, latest_version,
  pitch, links, shortlisted, ended_by, decline_message, accepted_version, accepted_by, accepted_at, accepted_from,
  message_count, creator_read_count, sponsor_read_count, created_at, updated_at
)
select
  id, origin, null, title, creator_uid, sponsor_uid, opened_by, state,
  -- the side that did not propose the version on the table answers it
  case when state = 'proposed' then case when latest_version % 2 = 1 then other_side else opened_by end end,
  latest_version,
  pitch, links, shortlisted,
  case state when 'declined' then case when latest_version % 2 = 1 then other_uid else opener_uid end
             when 'withdrawn' then case when latest_version % 2 = 1 then opener_uid else other_uid end end,
  case when state = 'declined' and message_draw < 0.5 then 'Thanks, but this does not fit our plans this quarter.' end,
  case when state = 'agreed' then latest_version end,
  case when state = 'agreed' then case when latest_version % 2 = 1 then other_uid else opener_uid end end,
  case when state = 'agreed' then terms_at end,
  case when state = 'agreed' then '203.0.113.' || (g % 250) end,
  message_count,
  message_count - case when unread_draw < 0.15 then least(message_count, 1 + (unread_draw * 20)::int) else 0 end,
  message_count - case when unread_draw > 0.85 then least(message_count, 1 + ((1 - unread_draw) * 20)::int) else 0 end,
  created_at,
  greatest(terms_at, updated_draw)
from (
  select d.*,
    case when opened_by = 'creator' then 'sponsor' else 'creator' end as other_side,
    case when opened_by = 'creator' then creator_uid else sponsor_uid end as opener_uid,
    case when opened_by = 'creator' then sponsor_uid else creator_uid end as other_uid,
    -- the version on the table was proposed this long after the deal opened
    least(now(), date_trunc('milliseconds', created_at + (latest_version - 1) * gap)) as terms_at,
    least(now(), date_trunc('milliseconds', created_at + (latest_version - 1) * gap + tail)) as updated_draw,
    case
      when age_days < 21 then (array['proposed', 'agreed', 'declined', 'withdrawn'])[width_bucket(state_draw, array[0, 0.70, 0.85, 0.95])]
      else (array['proposed', 'agreed', 'declined', 'withdrawn'])[width_bucket(state_draw, array[0, 0.04, 0.54, 0.84])]
    end as state
  from (
    select
      g,
      'deal_' || left(md5('bench-deal-' || g), 16) as id,
      ${CREATOR_UID("creator_n")} as creator_uid,
      ${SPONSOR_UID("sponsor_n")} as sponsor_uid,
      origin,
      case when origin = 'application' then 'creator' else 'sponsor' end as opened_by,
      age_days,
      date_trunc('milliseconds', now() - age_days * interval '1 day') as created_at,
      width_bucket(random(), array[0, 0.55, 0.80, 0.92]) as latest_version,
      (0.5 + random() * 3.5) * interval '1 day' as gap,
      random() * random() * 6 * interval '1 day' as tail,
      random() as state_draw,
      random() as message_draw,
      random() as unread_draw,
      case when random() < 0.35 then 1 + floor(power(random(), 3) * 40)::int else 0 end as message_count,
      random() < 0.1 as shortlisted,
      (array['Spring launch', 'Back to school', 'Holiday gift guide', 'Product seeding', 'Summer campaign', 'App install push', 'Unboxing series', 'Year-long ambassador'])[1 + floor(random() * 8)::int]
        || ': ' || (array['YouTube integration', 'Instagram reel', 'TikTok series', 'Podcast read', 'Newsletter feature'])[1 + floor(random() * 5)::int] as title,
      (array['I have covered this category for three years and my audience buys what I recommend.',
             'We would love a dedicated video with an honest review and a code in the description.',
             'My viewers are mostly 18–34 and care about gear that lasts; here is what I would make.',
             'Your brief fits my weekly series; I can deliver a draft two weeks before the date.'])[1 + floor(random() * 4)::int] as pitch,
      case when random() < 0.4 then array['https://example.com/portfolio/' || g] else '{}'::text[] end as links
    from (
      select g, 730 * power(random(), 1.6) as age_days,
        case when g <= ${HEAVY_DEALS} then 1 else 2 + floor(power(random(), 1.5) * ${CREATORS - 1})::int end as creator_n,
        1 + floor(power(random(), 1.5) * ${SPONSORS})::int as sponsor_n,
        case when random() < 0.6 then 'application' else 'offer' end as origin
      from generate_series(${first}, ${first + count - 1}) g
      offset 0
    ) ages
    offset 0
  ) d
  offset 0
) deal
on conflict do nothing`;

// Side names as a case, for the version's proposer: odd versions by the opener, even by the other side.
const TERMS = `
insert into deal_terms (deal_id, version, proposed_by, price, currency, deliverables, usage_rights, usage_days, exclusivity_days, disclosure_required, sponsor_approves, auto_approve_days, message, created_at)
select id, v,
  case when v % 2 = 1 then opened_by else case when opened_by = 'creator' then 'sponsor' else 'creator' end end,
  100 * (50 + floor(random() * 4950)::int),
  case when random() < 0.85 then 'usd' else 'eur' end,
  jsonb_build_array(jsonb_build_object('channel', 'YouTube', 'format', 'Integrated read, 60–90 s', 'dueDate', to_char(created_at + interval '30 days', 'YYYY-MM-DD')))
    || case when random() < 0.4 then jsonb_build_array(jsonb_build_object('channel', 'Instagram', 'format', 'Story with link', 'dueDate', to_char(created_at + interval '35 days', 'YYYY-MM-DD'))) else '[]'::jsonb end,
  rights, case rights when 'none' then 0 when 'organic' then 90 else 365 end,
  (array[0, 0, 14, 30])[1 + floor(random() * 4)::int], true, random() < 0.8, 3,
  case when v = 1 then '' else 'Could we meet here? The rest stays as it was.' end,
  least(updated_at, created_at + (v - 1) * ((updated_at - created_at) / latest_version))
from (
  select d.id, d.opened_by, d.created_at, d.updated_at, d.latest_version, v,
    (array['none', 'organic', 'paid'])[1 + floor(random() * 3)::int] as rights
  from deals d
  cross join lateral generate_series(1, d.latest_version) v
  offset 0
) t
on conflict do nothing`;

const ACTIVITY = `
insert into deal_activity (deal_id, seq, action, actor_uid, from_state, to_state, terms_version, network, at)
select d.id, s,
  case when s = 1 then d.origin when s <= d.latest_version then 'counter'
       else case d.state when 'agreed' then 'accept' when 'declined' then 'decline' else 'withdraw' end end,
  case when (s % 2 = 1) = (d.opened_by = 'creator') then d.creator_uid else d.sponsor_uid end,
  case when s > 1 then 'proposed' end,
  case when s <= d.latest_version then 'proposed' else d.state end,
  least(s, d.latest_version),
  '198.51.100.' || (s * 7 % 250),
  least(d.updated_at, d.created_at + (s - 1) * ((d.updated_at - d.created_at) / (d.latest_version + 1)))
from deals d
cross join lateral generate_series(1, d.latest_version + case when d.state = 'proposed' then 0 else 1 end) s
on conflict do nothing`;

const MESSAGES = `
insert into deal_messages (deal_id, seq, author_uid, author_side, body, at)
select id, m, case when side = 'creator' then creator_uid else sponsor_uid end, side,
  (array['Thanks for the brief! Two questions about the due dates before I answer.',
         'Sure: the first draft can come a week earlier if that helps your launch.',
         'Could you send the product by the 12th? Filming is planned for the week after.',
         'Sounds good. I have updated the terms with the second deliverable.',
         'Shipping today; tracking number to follow.',
         'Draft is up, link in the terms. Let me know what you would change.'])[1 + floor(random() * 6)::int],
  least(updated_at, created_at + m * ((updated_at - created_at) / (message_count + 1)))
from (
  select d.id, d.creator_uid, d.sponsor_uid, d.created_at, d.updated_at, d.message_count, m,
    case when random() < 0.5 then 'creator' else 'sponsor' end as side
  from deals d
  cross join lateral generate_series(1, d.message_count) m
  where d.message_count > 0
  offset 0
) t
on conflict do nothing`;

/**
 * The creator with about the mean number of deals (the "average user") gets the demo password,
 * copied from the demo creator's credential, so the benchmark can sign in as them.
 */
async function averageCreator(db) {
  const { rows } = await db.query(`
    with counts as (select creator_uid as uid, count(*)::int as n from deals where creator_uid like 'bench-creator-%' group by creator_uid),
         mean as (select avg(n) as m from counts)
    select uid, n from counts, mean order by abs(n - m), uid limit 1`);
  const { uid, n } = rows[0];
  await db.query(`
    insert into account (id, account_id, provider_id, user_id, password)
    select 'bench-account-' || '${uid}', '${uid}', provider_id, '${uid}', password
    from account where user_id = '${HEAVY_UID}' and provider_id = 'credential'
    on conflict do nothing`);
  const { rows: emails } = await db.query(`select email from "user" where id = '${uid}'`);
  return { uid, email: emails[0].email, deals: n };
}

/** Fills the deal room (idempotent: a second run adds nothing) and settles the planner's statistics. */
export async function fill(db, { deals = DEAL_COUNT, log = console.log } = {}) {
  const started = performance.now();
  const step = async (label, text) => {
    const t = performance.now();
    await db.query(text);
    log(`  ${label}: ${((performance.now() - t) / 1000).toFixed(1)} s`);
  };
  // Same draws on every run and both engines' fills alike (PostgreSQL's generator, in PGlite too).
  await db.query("select setseed(0.42)");
  if (db.engine === "postgres") await db.query("set synchronous_commit = off");
  await step("people", PEOPLE);
  await step("profiles", PROFILES);
  for (let first = 1; first <= deals; first += BATCH) {
    await step(`deals ${first.toLocaleString("en")}–${Math.min(deals, first + BATCH - 1).toLocaleString("en")}`, DEALS_BATCH(first, Math.min(BATCH, deals - first + 1)));
  }
  await step("terms", TERMS);
  await step("activity", ACTIVITY);
  await step("messages", MESSAGES);
  // VACUUM as well as ANALYZE: visibility settled now, not by autovacuum during the measurement.
  await step("vacuum analyze", `vacuum analyze "user", profiles, account, deals, deal_terms, deal_activity, deal_messages`);
  const average = await averageCreator(db);
  const { rows } = await db.query(`
    select (select count(*) from deals)::int as deals, (select count(*) from deal_terms)::int as terms,
           (select count(*) from deal_activity)::int as activity, (select count(*) from deal_messages)::int as messages,
           (select count(*) from deals where creator_uid = '${HEAVY_UID}')::int as heavy,
           (select count(*) from deals where creator_uid = '${HEAVY_UID}' and waiting_on = 'creator')::int as heavy_waiting,
           (select count(*) from deals where creator_uid = '${average.uid}' and waiting_on = 'creator')::int as average_waiting,
           (select max(n) from (select count(*) as n from deals where creator_uid <> '${HEAVY_UID}' group by creator_uid) c)::int as busiest_other,
           (select max(n) from (select count(*) as n from deals group by sponsor_uid) s)::int as busiest_sponsor`);
  const counts = rows[0];
  log(
    `  ${counts.deals.toLocaleString("en")} deals, ${counts.terms.toLocaleString("en")} term versions, ${counts.activity.toLocaleString("en")} activity rows, ` +
      `${counts.messages.toLocaleString("en")} messages in ${((performance.now() - started) / 1000).toFixed(1)} s; heavy creator ${counts.heavy.toLocaleString("en")} deals ` +
      `(${counts.heavy_waiting} waiting on them), average creator ${average.uid} ${average.deals} (${counts.average_waiting} waiting), ` +
      `busiest other creator ${counts.busiest_other}, busiest sponsor ${counts.busiest_sponsor}`,
  );
  return { counts, average };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [target, count] = process.argv.slice(2);
  if (!target) throw new Error("usage: node bench/deals/fill.mjs <DATA_DIR | postgres://…> [deals]");
  const db = await openBenchDb(target);
  try {
    await fill(db, { deals: count ? Number(count) : DEAL_COUNT });
  } finally {
    await db.close();
  }
}
