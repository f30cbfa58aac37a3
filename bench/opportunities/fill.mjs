// Tops `opportunity_posts` up to an exact number of rows with realistic, set-based data, so the
// list page can be measured at 1k and at 1M posts. Used by run.mjs; also runs on its own:
//   node bench/opportunities/fill.mjs 1000000 postgres://postgres@127.0.0.1:5432/sponsorgrid_bench
// The database must already be migrated and seeded (start the server on it once).
import { pathToFileURL } from "node:url";
import pg from "pg";

const BATCH_SIZE = 100_000;

/**
 * The tags a post draws from, one facet at a time, most popular first. 57 catalogue tags (the
 * sponsorship types, industries and other tags, a dozen states and the event months).
 *
 * Real posts are tagged by facet: every post names how it sponsors, most name an industry, fewer
 * name a state or an event month. Each facet draws with a Zipf-like skew (weight ∝ 1 / rank^s),
 * which at 1M gives a few tags on 20–30 % of posts and a long tail under 1 %:
 *   product seeding 29 %, youtube sponsorship 28 %, technology 24 %, california 21 %, paid
 *   placement 20 % … massachusetts 0.96 %, colorado 0.83 %, ohio 0.70 %, oregon 0.63 %.
 * `present` is the share of posts that carry the facet at all; `second` adds a second, distinct
 * tag of the same facet to that share of the posts that have the first one. At most 6 tags.
 */
export const FACETS = {
  type: {
    present: 1,
    s: 0.8,
    tags: [
      "youtube sponsorship", "instagram sponsorship", "tiktok sponsorship", "influencer sponsorship",
      "podcast sponsorship", "streamer sponsorship", "event sponsorship", "blog sponsorship",
      "newsletter sponsorship", "esports sponsorship",
    ],
  },
  industry: {
    present: 0.9,
    s: 0.9,
    tags: [
      "technology", "gaming", "beauty", "food and beverage", "fashion", "health and fitness", "travel",
      "finance", "education", "music", "home and diy", "outdoors", "pets", "automotive", "nonprofit",
    ],
  },
  other: {
    present: 0.6,
    second: 0.5,
    s: 1,
    tags: [
      "product seeding", "paid placement", "affiliate", "small creators welcome", "long-term partnership",
      "giveaway", "local business", "student friendly",
    ],
  },
  state: {
    present: 0.45,
    s: 1.4,
    tags: [
      "california", "new york", "texas", "florida", "illinois", "washington", "georgia", "pennsylvania",
      "massachusetts", "colorado", "ohio", "oregon",
    ],
  },
  month: {
    present: 0.25,
    s: 0.6,
    tags: ["june", "july", "december", "may", "august", "september", "october", "november", "april", "march", "january", "february"],
  },
};

/** The most likely 6-tag post under FACETS: the top tag of each facet (two "other" tags). */
export const TOP_SIX_TAGS = [
  FACETS.type.tags[0], FACETS.industry.tags[0], FACETS.other.tags[0], FACETS.other.tags[1],
  FACETS.state.tags[0], FACETS.month.tags[0],
];

/**
 * How many posts carry all of TOP_SIX_TAGS at any size: two pages and more, so the 6-tag address
 * shows the same page — 20 cards of six tags and a link to the next page — at 1k as at 1M, where
 * the draws alone put the six on 46–70 posts and at 1k usually on none.
 */
export const SIX_TAG_POSTS_AT_LEAST = 45;

/** The most frequent tag a visitor picks first: the top sponsorship type (the default group). */
export const ONE_TAG = FACETS.type.tags[0];

export const ALL_BENCH_TAGS = Object.values(FACETS).flatMap((facet) => facet.tags);

/**
 * Lower bounds of each rank's slice of [0, 1): `width_bucket(random(), bounds)` then picks rank
 * 1…n by binary search inside PostgreSQL, so drawing a tag costs no join and no round trip.
 */
function zipfLowerBounds(n, s) {
  const weights = Array.from({ length: n }, (_, i) => 1 / (i + 1) ** s);
  const total = weights.reduce((a, b) => a + b, 0);
  const bounds = [];
  let acc = 0;
  for (const w of weights) {
    bounds.push(acc);
    acc += w / total;
  }
  return bounds;
}

// Text pieces for titles, organisations and ~300-character descriptions (3 sentences of ~100).
const ORG_FIRST = ["Northwind", "Brightleaf", "Blue Harbor", "Summit", "Copperline", "Redwood", "Lumen", "Oakridge", "Silverpine", "Tidewater", "Juniper", "Falcon", "Harvest", "Evergreen", "Ironwood", "Maple Street"];
const ORG_SECOND = ["Audio", "Foods", "Labs", "Outfitters", "Studio", "Co", "Goods", "Collective", "Media", "Supply"];
const TITLE_OPENERS = ["Looking for", "Seeking", "Open call:", "Now booking", "Partnering with", "Wanted:"];
const SENTENCES = [
  "We are a growing brand looking for creators who care about honest reviews and real audiences.",
  "You will receive the product up front and keep it whether or not the content performs well.",
  "Payment is made within fourteen days of the content going live, with a clear brief beforehand.",
  "Tell us about your audience, your typical views per post, and one piece of work you are proud of.",
  "We welcome first-time partners and are happy to walk you through disclosure rules and timelines.",
  "Ideal partners post at least twice a week and have an engaged community that trusts their picks.",
  "The campaign runs for six weeks and includes one dedicated post plus two short mentions per week.",
  "We provide talking points, not scripts: your voice matters more to us than our own slogans do.",
  "Creators outside the listed region may apply too if a meaningful share of their audience is local.",
  "Long-term partners get early access to new products and a higher rate after the first campaign.",
  "Please include your rate card or a range; we reply to every application within five working days.",
  "This opportunity suits channels about everyday life, reviews, tutorials, and behind-the-scenes.",
];

/** Bind parameters shared by every batch: the draw tables and the text pieces. */
function drawParameters() {
  const params = { orgFirst: ORG_FIRST, orgSecond: ORG_SECOND, openers: TITLE_OPENERS, sentences: SENTENCES };
  for (const [name, facet] of Object.entries(FACETS)) {
    params[`${name}Tags`] = facet.tags;
    params[`${name}Bounds`] = zipfLowerBounds(facet.tags.length, facet.s);
  }
  return params;
}

/**
 * One batch: `count` posts in one INSERT … SELECT over generate_series. The inner query draws
 * every random number once per row (`offset 0` keeps PostgreSQL from inlining it, which would
 * re-evaluate random() per reference); the outer one turns the draws into columns. `$name` is a
 * bind parameter (see bindNamed).
 */
const INSERT_BATCH = `
insert into opportunity_posts (
  id, title, organization, description, website, contact_name, contact_email,
  min_contribution_cents, application_deadline, date_posted, updated_at,
  poster_uid, poster_name, tags, total_hearts
)
select
  lpad((10000000000 - extract(epoch from posted)::bigint)::text, 10, '0') || '_' || suffix,
  opener || ' ' || split_part(type_tag, ' ', 1) || ' creators'
    || coalesce(' for ' || industry_tag, '') || coalesce(' in ' || initcap(state_tag), ''),
  org,
  s1 || ' ' || s2 || ' ' || s3,
  'https://' || regexp_replace(lower(org), '[^a-z0-9]', '', 'g') || '.example',
  'Partnerships team',
  'partners@' || regexp_replace(lower(org), '[^a-z0-9]', '', 'g') || '.example',
  -- 40 % collect nothing here; the rest $325–$5,000 in $25 steps, most near the low end
  case when money_draw < 0.4 then 0 else 2500 * ceil(power(money_draw, 3) * 200)::int end,
  -- 70 % have a deadline, 7–118 days after posting
  case when deadline_draw < 0.7 then posted + (7 + floor(deadline_draw * 160)) * interval '1 day' end,
  posted,
  posted,
  case when poster_draw < 0.45 then 'demo-sponsor' when poster_draw < 0.9 then 'demo-sponsor2' else 'demo-creator' end,
  case when poster_draw < 0.45 then 'Northwind Audio' when poster_draw < 0.9 then 'Brightleaf Foods' else 'Maya Makes' end,
  array_remove(array[type_tag, industry_tag, other_tag, other2_tag, state_tag, month_tag], null),
  floor(power(random(), 6) * 200)::int
from (
  select
    draws.*,
    ($typeTags::text[])[type_rank] as type_tag,
    case when random() < ${FACETS.industry.present} then ($industryTags::text[])[width_bucket(random(), $industryBounds::float8[])] end as industry_tag,
    case when has_other then ($otherTags::text[])[other_rank] end as other_tag,
    -- a second "other" tag, never the same as the first: a clash moves to the next rank
    case when has_other and random() < ${FACETS.other.second}
      then ($otherTags::text[])[case when other2_rank = other_rank then other2_rank % cardinality($otherTags::text[]) + 1 else other2_rank end]
    end as other2_tag,
    case when random() < ${FACETS.state.present} then ($stateTags::text[])[width_bucket(random(), $stateBounds::float8[])] end as state_tag,
    case when random() < ${FACETS.month.present} then ($monthTags::text[])[width_bucket(random(), $monthBounds::float8[])] end as month_tag
  from (
    select
      g,
      -- ~3 years back, more posts recently (density falls linearly with age), whole seconds
      date_trunc('second', now() - (1 - sqrt(random())) * interval '1096 days') as posted,
      -- 20 characters of [A-Za-z0-9] from 128 random bits (md5 of the row number and a draw)
      left(translate(encode(decode(md5(g::text || ':' || random()::text || ':' || clock_timestamp()::text), 'hex'), 'base64'), '+/=', 'xy'), 20) as suffix,
      width_bucket(random(), $typeBounds::float8[]) as type_rank,
      random() < ${FACETS.other.present} as has_other,
      width_bucket(random(), $otherBounds::float8[]) as other_rank,
      width_bucket(random(), $otherBounds::float8[]) as other2_rank,
      random() as money_draw,
      random() as deadline_draw,
      random() as poster_draw,
      ($orgFirst::text[])[1 + floor(random() * cardinality($orgFirst::text[]))::int] || ' '
        || ($orgSecond::text[])[1 + floor(random() * cardinality($orgSecond::text[]))::int] as org,
      ($openers::text[])[1 + floor(random() * cardinality($openers::text[]))::int] as opener,
      ($sentences::text[])[1 + floor(random() * 4)::int] as s1,
      ($sentences::text[])[5 + floor(random() * 4)::int] as s2,
      ($sentences::text[])[9 + floor(random() * 4)::int] as s3
    from generate_series($firstRow::bigint, $firstRow::bigint + $count::bigint - 1) as g
    offset 0
  ) draws
  offset 0
) posts`;

/**
 * Turns the `$name` placeholders above into PostgreSQL's `$1, $2 …` and the matching values, so
 * the SQL can say what each parameter is.
 */
function bindNamed(text, named) {
  const names = [];
  const sql = text.replace(/\$([A-Za-z]\w*)/g, (_, name) => {
    if (!(name in named)) throw new Error(`no value for $${name}`);
    if (!names.includes(name)) names.push(name);
    return `$${names.indexOf(name) + 1}`;
  });
  return { text: sql, values: names.map((name) => named[name]) };
}

/**
 * Gives TOP_SIX_TAGS to randomly chosen generated posts until at least SIX_TAG_POSTS_AT_LEAST carry
 * them (none change at 1M, where the draws put them on enough). Such a post's tags are exactly the
 * six, in facet order as a drawn one's, and its title is rebuilt from them as the fill builds titles;
 * its date, id, money and deadline stay as drawn. Returns how many posts changed.
 */
async function plantSixTagPosts(client) {
  const { rowCount } = await client.query(
    `with need as (
       select greatest(0, $2::int - count(*))::int as n from opportunity_posts where tags @> $1::text[]
     )
     update opportunity_posts
     set tags = $1::text[],
         title = regexp_replace(title, ' \\S+ creators.*$', '') || $3
     where id in (
       select id from opportunity_posts
       where not tags @> $1::text[] and contact_name = 'Partnerships team'
       order by random()
       limit (select n from need)
     )`,
    [TOP_SIX_TAGS, SIX_TAG_POSTS_AT_LEAST, ` ${TOP_SIX_TAGS[0].split(" ")[0]} creators for ${TOP_SIX_TAGS[1]} in ${TOP_SIX_TAGS[4].replace(/\b\w/g, (c) => c.toUpperCase())}`],
  );
  return rowCount ?? 0;
}

/** Fails early, with the names, if a bench tag is missing from the catalogue. */
async function assertTagsExist(client) {
  const { rows } = await client.query("select name from tags where kind <> 'external_sponsor' and name = any($1::text[])", [ALL_BENCH_TAGS]);
  const known = new Set(rows.map((row) => row.name));
  const missing = ALL_BENCH_TAGS.filter((tag) => !known.has(tag));
  if (missing.length > 0) throw new Error(`These bench tags are not in the tags table: ${missing.join(", ")}. Start the server on the database once so it seeds the catalogue.`);
}

/**
 * Tops `opportunity_posts` up to exactly `targetCount` rows (the server's 48 demo posts count),
 * then sets the 'opportunity posts' total to the real count and runs VACUUM ANALYZE so the
 * planner sees the new data, as autovacuum would after a real load. Returns the final count.
 */
export async function fill(client, targetCount, { log = console.log } = {}) {
  await assertTagsExist(client);
  const existing = Number((await client.query("select count(*) from opportunity_posts")).rows[0].count);
  if (existing > targetCount) throw new Error(`opportunity_posts already has ${existing} rows, more than ${targetCount}`);

  // This session only: a crash mid-fill loses at most the last batch, which the next fill redoes.
  await client.query("set synchronous_commit = off");
  const params = drawParameters();
  const started = performance.now();
  let done = 0;
  const missing = targetCount - existing;
  while (done < missing) {
    const count = Math.min(BATCH_SIZE, missing - done);
    const batchStart = performance.now();
    // Row numbers continue across runs (existing + done), so md5 inputs never repeat.
    await client.query(bindNamed(INSERT_BATCH, { ...params, firstRow: existing + done + 1, count }));
    done += count;
    const seconds = (performance.now() - batchStart) / 1000;
    log(`  filled ${(existing + done).toLocaleString("en")} / ${targetCount.toLocaleString("en")} posts (${Math.round(count / seconds).toLocaleString("en")} rows/s)`);
  }
  if (missing > 0) {
    const seconds = (performance.now() - started) / 1000;
    log(`  inserted ${missing.toLocaleString("en")} posts in ${seconds.toFixed(1)} s (${Math.round(missing / seconds).toLocaleString("en")} rows/s overall)`);
  }

  const planted = await plantSixTagPosts(client);
  if (planted > 0) log(`  gave the six tags (${TOP_SIX_TAGS.join(", ")}) to ${planted} more posts, for ${SIX_TAG_POSTS_AT_LEAST} in all`);

  const final = Number((await client.query("select count(*) from opportunity_posts")).rows[0].count);
  await client.query("update totals set total = $1 where name = 'opportunity posts'", [final]);
  const vacuumStart = performance.now();
  await client.query("set maintenance_work_mem = '512MB'");
  await client.query("vacuum analyze opportunity_posts");
  log(`  vacuum analyze: ${((performance.now() - vacuumStart) / 1000).toFixed(1)} s`);
  return final;
}

// Standalone: node bench/opportunities/fill.mjs <count> [database-url]
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const target = Number(process.argv[2]);
  const url = process.argv[3] ?? process.env.DATABASE_URL;
  if (!Number.isInteger(target) || target < 0 || !url) {
    console.error("usage: node bench/opportunities/fill.mjs <count> <postgres-url>");
    process.exit(2);
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    console.log(`opportunity_posts now holds ${(await fill(client, target)).toLocaleString("en")} rows`);
  } finally {
    await client.end();
  }
}
