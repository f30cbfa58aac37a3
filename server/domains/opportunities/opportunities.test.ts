import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { hearts, logs, opportunityPosts, totals, user } from "#server/platform/db/schema";
import { seedDatabase } from "#server/tools/seed";
import { deadlineFields } from "./deadline";
import { parseOpportunityForm, type OpportunityFormInput } from "./form";
import { toggleHeart } from "./hearts";
import { listOpportunities } from "./list";
import { parseListQuery } from "./list-query";
import { createOpportunity, deleteOpportunity, editOpportunity } from "./mutations";
import { getOpportunity, listLikedBy, listPostsBy, logTagSearch } from "./read";
import { allTags, loadTagCatalogue } from "./tags";
import { createSearchLog } from "#server/platform/search-log/search-log";
import { saveProfileName } from "#server/domains/accounts/profiles";

const formInput: OpportunityFormInput = {
  title: "Test opportunity", description: "A test.", bullets: "", organization: "Org", website: "", minContribution: "250",
  deadlineDate: "", deadlineTime: "", deadlineTimeZone: "", contactName: "", contactEmail: "", contactPhone: "",
  tags: ["podcast sponsorship", "music"],
};
function form(overrides: Partial<OpportunityFormInput> = {}) {
  const result = parseOpportunityForm({ ...formInput, ...overrides });
  if (result.kind !== "SUCCESS") throw new Error(JSON.stringify(result.fieldErrors));
  return result.form;
}

describe.each(ENGINES)("opportunities on %s", (engine) => {
  const database = migratedDatabase(engine);
  let known: Set<string>;
  const total = async () => (await database.db.select().from(totals).where(eq(totals.name, "opportunity posts")))[0]!.total;
  const query = (params: string) => {
    const parsed = parseListQuery(new URLSearchParams(params), known);
    if (parsed.kind !== "SUCCESS") throw new Error(parsed.message);
    return parsed.query;
  };

  beforeAll(async () => {
    await seedDatabase(database.db);
    known = allTags(await loadTagCatalogue(database.db));
  });

  it("lists 20 a page, newest first, and walks forward and back with cursors", async () => {
    const first = await listOpportunities(database.db, query(""), null);
    expect(first.items).toHaveLength(20);
    expect(first.total).toBe(48);
    expect(first.hasNext).toBe(true);
    expect(first.hasPrevious).toBe(false);
    const ids = first.items.map((i) => i.id);
    expect(ids).toEqual([...ids].sort());
    const second = await listOpportunities(database.db, query(`after=${ids[19]}&page=1`), null);
    expect(second.items[0]!.id > ids[19]!).toBe(true);
    const back = await listOpportunities(database.db, query(`before=${second.items[0]!.id}&page=0`), null);
    expect(back.items.map((i) => i.id)).toEqual(ids);
    expect(back.hasPrevious).toBe(false);
    const third = await listOpportunities(database.db, query(`after=${second.items[19]!.id}&page=2`), null);
    expect(third.items).toHaveLength(8);
    expect(third.hasNext).toBe(false);
  });

  it("filters by every chosen tag and says when nothing matches", async () => {
    const filtered = await listOpportunities(database.db, query("tags[]=youtube%20sponsorship&tags[]=technology"), null);
    expect(filtered.items.length).toBeGreaterThan(0);
    for (const item of filtered.items) expect(item.tags).toEqual(expect.arrayContaining(["youtube sponsorship", "technology"]));
    const none = await listOpportunities(database.db, query("tags[]=alaska&tags[]=esports%20sponsorship&tags[]=beauty"), null);
    expect(none).toMatchObject({ message: "NO_RESULTS_FOUND", items: [] });
  });

  it("finds a post by any 1 to 6 of its tags, whatever their byte order, as plain containment does", async () => {
    // 'new york' < 'newsletter sponsorship' byte by byte, the other way round in en_US.
    const sixTags = ["newsletter sponsorship", "new york", "technology", "youtube sponsorship", "product seeding", "june"];
    const created = await createOpportunity(database.db, { uid: "demo-sponsor" }, form({ tags: sixTags }), known);
    if (created.kind !== "SUCCESS") throw new Error(created.message);
    try {
      for (let mask = 1; mask < 1 << sixTags.length; mask++) {
        const chosen = sixTags.filter((_, i) => mask & (1 << i));
        const listed = await listOpportunities(database.db, query(chosen.map((t) => `tags[]=${encodeURIComponent(t)}`).join("&")), null);
        const expected = (await database.db.execute(
          sql`select id from opportunity_posts where tags @> ${sql.param(chosen)}::text[] order by id limit 20`,
        )) as unknown as { rows: { id: string }[] };
        expect(listed.items.map((item) => item.id), chosen.join(", ")).toEqual(expected.rows.map((row) => row.id));
        expect(listed.items.map((item) => item.id)).toContain(created.id);
      }
    } finally {
      await deleteOpportunity(database.db, { uid: "demo-sponsor" }, created.id);
    }
  });

  it.each([
    ["tags[]=a&tags[]=b&tags[]=c&tags[]=d&tags[]=e&tags[]=f&tags[]=g", "at most 6 tags"],
    ["tags[]=not-a-tag", "Unknown tag"],
    ["after=../../etc", "not valid"],
    ["after=8000000000_a&before=8000000000_b", "not valid"],
  ])("refuses the forged query %s", (params, message) => {
    const parsed = parseListQuery(new URLSearchParams(params), known);
    expect(parsed.kind).toBe("ERROR");
    if (parsed.kind === "ERROR") expect(parsed.message).toContain(message);
  });

  it("creates, edits (keeping id, date and hearts) and deletes with the total kept right", async () => {
    const before = await total();
    const created = await createOpportunity(database.db, { uid: "demo-sponsor" }, form(), known);
    if (created.kind !== "SUCCESS") throw new Error(created.message);
    expect(created.id).toMatch(/^\d{10}_[A-Za-z0-9]{20}$/);
    expect(await total()).toBe(before + 1);
    const post = await getOpportunity(database.db, created.id, null);
    expect(post).toMatchObject({ posterUid: "demo-sponsor", posterName: "Northwind Audio", minContributionCents: 25_000 });

    await toggleHeart(database.db, created.id, "demo-creator");
    const edited = await editOpportunity(database.db, { uid: "demo-sponsor" }, created.id, form({ title: "Edited title" }), known);
    expect(edited.kind).toBe("SUCCESS");
    const after = await getOpportunity(database.db, created.id, "demo-creator");
    expect(after).toMatchObject({ id: created.id, title: "Edited title", totalHearts: 1, liked: true, datePosted: post!.datePosted });

    expect(await editOpportunity(database.db, { uid: "demo-creator" }, created.id, form(), known)).toMatchObject({ code: "permission-denied" });
    expect(await deleteOpportunity(database.db, { uid: "demo-creator" }, created.id)).toMatchObject({ code: "permission-denied" });
    expect(await deleteOpportunity(database.db, { uid: "demo-sponsor" }, "8000000000_missing")).toMatchObject({ code: "not-found" });
    expect(await createOpportunity(database.db, { uid: "demo-sponsor" }, form({ tags: ["made up"] }), known)).toMatchObject({ code: "invalid-argument" });

    expect(await deleteOpportunity(database.db, { uid: "demo-sponsor" }, created.id)).toEqual({ kind: "SUCCESS" });
    expect(await total()).toBe(before);
    expect(await database.db.select().from(hearts).where(eq(hearts.postId, created.id))).toEqual([]);
    expect((await listLikedBy(database.db, "demo-creator", null)).items.map((i) => i.id)).not.toContain(created.id);
  });

  it("shows the poster's current profile name on every post of theirs after a rename, and on posts made after it", async () => {
    const mine = await database.db.select({ id: opportunityPosts.id }).from(opportunityPosts).where(eq(opportunityPosts.posterUid, "demo-creator"));
    expect(mine.length).toBeGreaterThan(1);
    for (const { id } of mine) expect(await getOpportunity(database.db, id, null)).toMatchObject({ posterName: "Maya Makes" });
    const others = await database.db.select({ name: opportunityPosts.posterName }).from(opportunityPosts).where(eq(opportunityPosts.posterUid, "demo-sponsor"));

    expect(await saveProfileName(database.db, "demo-creator", "  Maya Makes Studio ")).toEqual({ kind: "SUCCESS", name: "Maya Makes Studio" });
    for (const { id } of mine) expect(await getOpportunity(database.db, id, null)).toMatchObject({ posterName: "Maya Makes Studio" });
    const created = await createOpportunity(database.db, { uid: "demo-creator" }, form(), known);
    if (created.kind !== "SUCCESS") throw new Error(created.message);
    expect(await getOpportunity(database.db, created.id, null)).toMatchObject({ posterName: "Maya Makes Studio" });
    // Nobody else's posts change.
    expect(await database.db.select({ name: opportunityPosts.posterName }).from(opportunityPosts).where(eq(opportunityPosts.posterUid, "demo-sponsor"))).toEqual(others);

    await deleteOpportunity(database.db, { uid: "demo-creator" }, created.id);
    await saveProfileName(database.db, "demo-creator", "Maya Makes");
  });

  it("keeps a summer deadline typed in New York at 18:30 EDT, with its zone, through edits saved unchanged", async () => {
    const typed = { deadlineDate: "2030-07-15", deadlineTime: "18:30", deadlineTimeZone: "America/New_York" };
    const created = await createOpportunity(database.db, { uid: "demo-sponsor" }, form(typed), known);
    if (created.kind !== "SUCCESS") throw new Error(created.message);
    try {
      for (let save = 0; save < 3; save++) {
        const post = (await getOpportunity(database.db, created.id, null))!;
        expect(post).toMatchObject({ applicationDeadline: "2030-07-15T22:30:00.000Z", applicationDeadlineTimeZone: "America/New_York" });
        // What the edit page shows is what was typed; saving it unchanged keeps the instant.
        const shown = deadlineFields(post.applicationDeadline, post.applicationDeadlineTimeZone);
        expect(shown).toEqual(typed);
        expect(await editOpportunity(database.db, { uid: "demo-sponsor" }, created.id, form(shown), known)).toMatchObject({ kind: "SUCCESS" });
      }
      const [listed] = (await listPostsBy(database.db, "demo-sponsor", null)).items.filter((item) => item.id === created.id);
      expect(listed).toMatchObject({ applicationDeadline: "2030-07-15T22:30:00.000Z", applicationDeadlineTimeZone: "America/New_York" });
      await editOpportunity(database.db, { uid: "demo-sponsor" }, created.id, form({ deadlineDate: "", deadlineTime: "", deadlineTimeZone: "America/New_York" }), known);
      expect(await getOpportunity(database.db, created.id, null)).toMatchObject({ applicationDeadline: null, applicationDeadlineTimeZone: null });
    } finally {
      await deleteOpportunity(database.db, { uid: "demo-sponsor" }, created.id);
    }
  });

  it("toggles a heart on and off and reports a missing post", async () => {
    const [post] = await database.db.select({ id: opportunityPosts.id }).from(opportunityPosts).limit(1);
    expect(await toggleHeart(database.db, post!.id, "demo-sponsor2")).toMatchObject({ result: "added", totalHearts: 1 });
    expect((await listLikedBy(database.db, "demo-sponsor2", null)).items.map((i) => i.id)).toEqual([post!.id]);
    expect(await toggleHeart(database.db, post!.id, "demo-sponsor2")).toMatchObject({ result: "removed", totalHearts: 0 });
    expect(await toggleHeart(database.db, "8000000000_missing", "demo-sponsor2")).toMatchObject({ kind: "ERROR", code: "not-found" });
  });

  it("answers not-found, never a database error, for ids no post can have (NUL, huge, other text)", async () => {
    for (const id of ["8000000000_a\0b", "\0", `8000000000_${"x".repeat(100_000)}`, "../../etc", "🙂"]) {
      expect(await getOpportunity(database.db, id, null)).toBeNull();
      expect(await toggleHeart(database.db, id, "demo-sponsor2")).toMatchObject({ kind: "ERROR", code: "not-found" });
      expect(await deleteOpportunity(database.db, { uid: "demo-sponsor" }, id)).toMatchObject({ kind: "ERROR", code: "not-found" });
      expect(await editOpportunity(database.db, { uid: "demo-sponsor" }, id, form(), known)).toMatchObject({ kind: "ERROR", code: "not-found" });
    }
  });

  it("logs each searched tag as search / tag_<tag>", async () => {
    const searchLog = createSearchLog(database.db);
    logTagSearch(searchLog, "demo-creator", ["podcast sponsorship", "music"]);
    await searchLog.close();
    const entries = await database.db.select().from(logs).where(eq(logs.description, "search"));
    expect(entries.map((e) => [e.uid, e.subtype, e.type, e.count]).sort()).toEqual([
      ["demo-creator", "tag_music", "search", 1],
      ["demo-creator", "tag_podcast sponsorship", "search", 1],
    ]);
  });

  it("lists the poster's own posts, 50 per load", async () => {
    const mine = await listPostsBy(database.db, "demo-sponsor", null);
    expect(mine.items.length).toBe(20);
    expect(mine.nextCursor).toBeNull();
  });

  it("keeps the heart count equal to the heart rows under 200 concurrent toggles by distinct users", async () => {
    const [post] = await database.db.select({ id: opportunityPosts.id }).from(opportunityPosts).orderBy(opportunityPosts.id).limit(1);
    const uids = Array.from({ length: 200 }, (_, i) => `load-user-${i}`);
    await database.db.insert(user).values(uids.map((id) => ({ id, name: id, email: `${id}@load.example` })));
    const results = await Promise.all(uids.map((uid) => toggleHeart(database.db, post!.id, uid)));
    expect(results.every((r) => r.kind === "SUCCESS" && r.result === "added")).toBe(true);
    const result = (await database.db.execute(
      sql`select total_hearts, (select count(*)::int from hearts where post_id = ${post!.id}) as heart_rows from opportunity_posts where id = ${post!.id}`,
    )) as unknown as { rows: { total_hearts: number; heart_rows: number }[] };
    expect(result.rows[0]).toEqual({ total_hearts: 200, heart_rows: 200 });
    // Half of them take their heart back, concurrently again.
    await Promise.all(uids.slice(0, 100).map((uid) => toggleHeart(database.db, post!.id, uid)));
    const after = await getOpportunity(database.db, post!.id, null);
    expect(after?.totalHearts).toBe(100);
  });
});

// A database whose default collation is not byte order (as en_US is): the tag keys stay byte-ordered.
describe.each(ENGINES.filter((engine) => engine === "postgres"))("tag filters on %s with a linguistic collation", (engine) => {
  const database = migratedDatabase(engine, { linguisticCollation: true });
  beforeAll(async () => {
    await seedDatabase(database.db);
  });

  it("finds a post by two and by three tags that this collation orders differently", async () => {
    const ordering = (await database.db.execute(sql`select 'new york' < 'newsletter sponsorship' as before`)) as unknown as { rows: { before: boolean }[] };
    expect(ordering.rows[0]!.before).toBe(false);
    const known = allTags(await loadTagCatalogue(database.db));
    const tags = ["new york", "newsletter sponsorship", "technology"];
    const created = await createOpportunity(database.db, { uid: "demo-sponsor" }, form({ tags }), known);
    if (created.kind !== "SUCCESS") throw new Error(created.message);
    for (const chosen of [tags.slice(0, 2), tags]) {
      const parsed = parseListQuery(new URLSearchParams(chosen.map((tag) => ["tags[]", tag])), known);
      if (parsed.kind !== "SUCCESS") throw new Error(parsed.message);
      const listed = await listOpportunities(database.db, parsed.query, null);
      expect(listed.items.map((item) => item.id)).toContain(created.id);
    }
  });
});
