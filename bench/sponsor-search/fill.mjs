// The sponsor directory at two sizes, for run.mjs (also usable on its own on a stopped server's data):
//   node bench/sponsor-search/fill.mjs base   <DATA_DIR | postgres://…>   150 companies, the demo creator made Pro
//   node bench/sponsor-search/fill.mjs grow   <DATA_DIR | postgres://…>   … + synthetic companies up to 100,000
//
// The 150 "real" rows are the ones the searched pages show. The synthetic ones share the searched
// tag ("technology") AND the searched name word ("nova"), so both searches have 100,000 matching
// rows to go through at the large size, but their names start with "Zzz", which sorts after every
// real name: the first page of both searches is the same at 150 and at 100,000.
import { pathToFileURL } from "node:url";
import { tsImport } from "tsx/esm/api";

export const BASE_COUNT = 150;
export const GROWN_COUNT = 100_000;
export const SEARCH_TAG = "technology";
export const SEARCH_NAME = "nova";
export const DEMO_EMAIL = "maya@demo.sponsorgrid.example";

const FIRST = ["Amber", "Bright", "Cedar", "Delta", "Echo", "Falcon", "Granite", "Harbor", "Iris", "Juniper", "Kite", "Lumen", "Maple", "Nova", "Orbit"];
const SECOND = ["Audio", "Brands", "Coffee", "Digital", "Foods", "Games", "Labs", "Media", "Outdoors", "Studio"];
const OTHER_TAGS = ["gaming", "food and beverage", "audio", "beauty", "travel"];

/** Opens the database run.mjs's server uses: PGlite in a data folder, or PostgreSQL by URL. */
export async function openBenchDb(target) {
  const { openPglite, openPostgres } = await tsImport("../../server/platform/db/client.ts", import.meta.url);
  return target.startsWith("postgres") ? openPostgres(target) : openPglite(target);
}

async function exec(db, text) {
  const { sql } = await tsImport("drizzle-orm", import.meta.url);
  return db.execute(sql.raw(text));
}

/** 150 companies of two words (15 × 10), "Nova …" among them; every third one tagged technology. */
export async function fillBase(db) {
  const { namePrefixes, nameWords } = await tsImport("../../server/domains/sponsor-directory/names.ts", import.meta.url);
  const { externalSponsors, tags, proMemberships, user } = await tsImport("../../server/platform/db/schema/index.ts", import.meta.url);
  const { eq } = await tsImport("drizzle-orm", import.meta.url);
  const rows = [];
  FIRST.forEach((first, i) =>
    SECOND.forEach((second, j) => {
      const n = i * SECOND.length + j;
      const name = `${first} ${second}`;
      const words = nameWords(name);
      rows.push({
        id: `bench-${String(n).padStart(3, "0")}`,
        name,
        nameArray: words,
        namePrefixes: namePrefixes(words),
        tags: n % 3 === 0 || first === "Nova" ? [SEARCH_TAG, OTHER_TAGS[n % OTHER_TAGS.length]] : [OTHER_TAGS[n % OTHER_TAGS.length]],
        blurb: `${name} sponsors creators with integrated reads and affiliate codes. They like honest reviews and long-term partners.`,
        preview: `${name} works with creators.`,
        inPreviewSample: n % 15 === 0,
        website: `https://${first.toLowerCase()}-${second.toLowerCase()}.example`,
        details: { sponsors: "Channels of every size.", formats: ["Integrated video read"], apply: "Through their creator program.", applyUrl: null },
        addedAt: new Date(Date.UTC(2026, 0, 1) + n * 3_600_000),
      });
    }),
  );
  await db.insert(externalSponsors).values(rows).onConflictDoNothing();
  await db.insert(tags).values([SEARCH_TAG, ...OTHER_TAGS].map((name) => ({ kind: "external_sponsor", name }))).onConflictDoNothing();
  const [demo] = await db.select({ id: user.id }).from(user).where(eq(user.email, DEMO_EMAIL));
  if (!demo) throw new Error(`no ${DEMO_EMAIL}: start the server once on this database so it seeds`);
  await db.insert(proMemberships).values({ uid: demo.id, plan: "limitless", status: "active" }).onConflictDoNothing();
  await exec(db, "analyze external_sponsors");
}

/**
 * Synthetic companies "Zzz Nova Labs 000151" … up to GROWN_COUNT, in one set-based INSERT:
 * the same tag and name word as the searches, names that sort after every real one.
 */
export async function grow(db, total = GROWN_COUNT) {
  await exec(
    db,
    `insert into external_sponsors (id, name, name_array, name_prefixes, tags, blurb, preview, in_preview_sample, website, details, added_at)
     select 'synthetic-' || n, 'Zzz Nova Labs ' || lpad(n::text, 6, '0'),
            array['zzz', 'nova', 'labs', lpad(n::text, 6, '0')],
            array['z', 'zz', 'zzz', 'n', 'no', 'nov', 'nova', 'l', 'la', 'lab', 'labs']
              || array(select left(lpad(n::text, 6, '0'), k) from generate_series(1, 6) k),
            array['${SEARCH_TAG}', (array['gaming', 'audio', 'travel'])[1 + n % 3]],
            'A synthetic company for the benchmark.', 'Synthetic.', false, 'https://synthetic-' || n || '.example',
            '{"sponsors": "Everyone.", "formats": [], "apply": "Nowhere.", "applyUrl": null}'::jsonb,
            timestamptz '2020-01-01' + n * interval '1 minute'
     from generate_series(${BASE_COUNT + 1}, ${total}) n
     on conflict do nothing`,
  );
  // VACUUM as well as ANALYZE: the fresh rows' visibility is settled here, not by autovacuum and
  // hint-bit writes competing with the measurement that follows.
  await exec(db, "vacuum analyze external_sponsors");
}

/** Back to the 150 real companies (for a second measurement at the small size, after the large one). */
export async function shrink(db) {
  await exec(db, "delete from external_sponsors where id like 'synthetic-%'");
  await exec(db, "vacuum analyze external_sponsors");
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [step, target] = process.argv.slice(2);
  const handle = await openBenchDb(target);
  try {
    if (step === "base") await fillBase(handle.db);
    else if (step === "grow") await grow(handle.db);
    else throw new Error("step: base or grow");
  } finally {
    await handle.close();
  }
}
