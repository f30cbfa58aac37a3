import { sql, type SQL } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { ownerIsActive } from "#server/domains/accounts/active-owner";
import { ENGINES, migratedDatabase, type TestDb } from "#tests/support/databases";
import { planOf } from "#tests/support/query-plans";
import { seedDatabase } from "#server/tools/seed/index";

/** Runs `query` and returns the error's message (or null), leaving no trace behind. */
async function violation(database: TestDb, query: SQL): Promise<string | null> {
  try {
    await database.db.transaction(async (tx) => {
      await tx.execute(query);
      throw new Error("__rollback__");
    });
    return null;
  } catch (error) {
    const message = String((error as { cause?: Error }).cause?.message ?? (error as Error).message);
    return message.includes("__rollback__") ? null : message;
  }
}

describe.each(ENGINES)("database integrity on %s", (engine) => {
  const database = migratedDatabase(engine);
  let postId: string;
  beforeAll(async () => {
    await seedDatabase(database.db);
    const result = (await database.db.execute(sql`select id from opportunity_posts order by id limit 1`)) as unknown as {
      rows: { id: string }[];
    };
    postId = result.rows[0]!.id;
  });

  it.each([
    ["negative hearts", () => sql`update opportunity_posts set total_hearts = -1 where id = ${postId}`, /total_hearts_check/],
    ["negative contribution", () => sql`update opportunity_posts set min_contribution_cents = -100 where id = ${postId}`, /min_contribution_check/],
    ["a malformed post id", () => sql`update opportunity_posts set id = 'abc' where id = ${postId}`, /id_format_check/],
    ["a heart for a missing post", () => sql`insert into hearts (id, post_id, uid) values ('x_demo-creator', 'x', 'demo-creator')`, /foreign key/],
    ["a duplicate heart", () => sql`insert into hearts (id, post_id, uid) values (${postId + "_demo-creator"}, ${postId}, 'demo-creator'), (${postId + "_demo-creator"}, ${postId}, 'demo-creator')`, /duplicate key/],
    ["a heart id that is not postId_uid", () => sql`insert into hearts (id, post_id, uid) values ('other', ${postId}, 'demo-creator')`, /hearts_id_check/],
    ["a taken custom ending", () => sql`update bio_pages set custom_ending = 'mayamakes' where custom_ending = 'northwind_audio'`, /duplicate key/],
    ["an upper-case custom ending", () => sql`update bio_pages set custom_ending = 'Maya' where custom_ending = 'mayamakes'`, /custom_ending_check/],
    ["eleven links on a bio page", () => sql`update bio_pages set links = (select jsonb_agg(jsonb_build_object('type', 'website', 'url', 'https://x.example')) from generate_series(1, 11))`, /links_check/],
    ["a negative total", () => sql`update totals set total = -1`, /totals_total_check/],
    ["an unknown payment status", () => sql`insert into sponsor_sessions (id, provider, destination_account_id, poster_uid, amount, message, status) values ('cs_1', 'sandbox', 'acct_1', 'demo-creator', 500, 'hi', 'done')`, /status_check/],
    ["a zero-amount payment", () => sql`insert into sponsor_sessions (id, provider, destination_account_id, poster_uid, amount, message) values ('cs_2', 'sandbox', 'acct_1', 'demo-creator', 0, 'hi')`, /amount_check/],
    ["a platform fee above the amount", () => sql`insert into sponsor_sessions (id, provider, destination_account_id, poster_uid, amount, platform_fee, message) values ('cs_3', 'sandbox', 'acct_1', 'demo-creator', 500, 501, 'hi')`, /platform_fee_check/],
    ["an unknown Pro plan", () => sql`insert into pro_memberships (uid, plan, status) values ('demo-creator', 'gold', 'active')`, /plan_check/],
    ["an unknown user type", () => sql`update profiles set user_type = 'admin'`, /user_type_check/],
  ])("refuses %s", async (_name, query, message) => {
    expect(await violation(database, query())).toMatch(message);
  });

  it("deletes a post's hearts with the post", async () => {
    await database.db.execute(sql`insert into hearts (id, post_id, uid) values (${postId + "_demo-sponsor"}, ${postId}, 'demo-sponsor')`);
    await database.db.execute(sql`delete from opportunity_posts where id = ${postId}`);
    const result = (await database.db.execute(sql`select count(*)::int as n from hearts where post_id = ${postId}`)) as unknown as {
      rows: { n: number }[];
    };
    expect(result.rows[0]!.n).toBe(0);
  });

  // SPEC §7.2: every read the product makes has an index behind it.
  it.each([
    ["posts by tag containment", sql`select count(*) from opportunity_posts where tags @> array['youtube sponsorship', 'technology']`, "opportunity_posts_tags_gin_idx"],
    ["posts by two tags", sql`select count(*) from opportunity_posts where tag_pairs @> array['technology|youtube sponsorship']`, "opportunity_posts_tag_pairs_gin_idx"],
    ["posts by three or more tags", sql`select count(*) from opportunity_posts where tag_triples @> array['paid placement|technology|youtube sponsorship']`, "opportunity_posts_tag_triples_gin_idx"],
    ["posts newest first", sql`select id from opportunity_posts order by id limit 20`, "opportunity_posts_pkey"],
    ["posts after a cursor", sql`select id from opportunity_posts where id > '8000000000_a' order by id limit 20`, "opportunity_posts_pkey"],
    ["posts by poster", sql`select id from opportunity_posts where poster_uid = 'demo-sponsor' order by id limit 50`, "opportunity_posts_poster_idx"],
    ["hearts by user", sql`select post_id from hearts where uid = 'demo-creator' order by created_at desc limit 50`, "hearts_uid_created_idx"],
    ["sponsors by name", sql`select id from external_sponsors order by name, id limit 10`, "external_sponsors_name_idx"],
    ["sponsors by name search", sql`select id from external_sponsors where name_array @> array['acme']`, "external_sponsors_name_array_gin_idx"],
    ["sponsors by tag", sql`select id from external_sponsors where tags @> array['gaming']`, "external_sponsors_tags_gin_idx"],
    ["sponsors by the start of a name's word", sql`select id from external_sponsors where name_prefixes @> array['nor', 'vp']`, "external_sponsors_name_prefixes_gin_idx"],
    ["the sponsor preview sample", sql`select id from external_sponsors where in_preview_sample order by name, id limit 11`, "external_sponsors_preview_sample_idx"],
    ["recently added sponsors", sql`select id, name, tags, blurb, website, sample, added_at from external_sponsors order by added_at desc, id desc limit 11 offset 20`, "external_sponsors_added_idx"],
    ["sponsor sessions by poster", sql`select id from sponsor_sessions where poster_uid = 'demo-creator' order by created desc limit 20`, "sponsor_sessions_poster_created_idx"],
    ["notifications by user", sql`select id from notifications where uid = 'demo-creator' order by created desc limit 20`, "notifications_uid_created_idx"],
    ["unread notifications count", sql`select count(*) from notifications where uid = 'demo-creator' and unread`, "notifications_uid_unread_idx"],
    ["bio page by custom ending", sql`select id from bio_pages where custom_ending = 'mayamakes'`, "bio_pages_custom_ending_unique"],
    ["bio pages by owner", sql`select id from bio_pages where uid = 'demo-creator' order by updated_at desc`, "bio_pages_uid_idx"],
    ["signup log of a user", sql`select type from logs where uid = 'demo-creator' and description = 'signup'`, "logs_uid_description_idx"],
  ])("serves %s from an index", async (_name, query, index) => {
    expect(await planOf(database, query)).toContain(index);
  });

  // The active-owner rule (server/domains/accounts/active-owner.ts) rides along every public list: the list keeps its own index,
  // and the disabled accounts are read from their partial index, never by scanning every account.
  const active = (uid: string) => ownerIsActive(sql.raw(uid));
  it.each([
    ["posts newest first", sql`select id from opportunity_posts where ${active("opportunity_posts.poster_uid")} order by id limit 21`, "opportunity_posts_pkey"],
    ["posts after a cursor", sql`select id from opportunity_posts where id > '8000000000_a' and ${active("opportunity_posts.poster_uid")} order by id limit 21`, "opportunity_posts_pkey"],
    ["posts by tag", sql`select id from opportunity_posts where tags @> array['technology'] and ${active("opportunity_posts.poster_uid")} order by id limit 21`, "opportunity_posts_tags_gin_idx"],
    ["posts by two tags", sql`select id from opportunity_posts where tag_pairs @> array['technology|youtube sponsorship'] and ${active("opportunity_posts.poster_uid")} order by id limit 21`, "opportunity_posts_tag_pairs_gin_idx"],
    ["featured posts", sql`select id from opportunity_posts where featured_at is not null and ${active("opportunity_posts.poster_uid")} order by featured_at desc, id limit 12`, "opportunity_posts_featured_idx"],
    ["hearts by user", sql`select h.post_id from hearts h join opportunity_posts p on p.id = h.post_id where h.uid = 'demo-creator' and ${active("p.poster_uid")} order by h.created_at desc limit 51`, "hearts_uid_created_idx"],
    ["bio page by custom ending", sql`select id, ${active("bio_pages.uid")} from bio_pages where custom_ending = 'mayamakes'`, "bio_pages_custom_ending_unique"],
  ])("serves %s of active owners from its index and the disabled accounts' index", async (_name, query, index) => {
    const plan = await planOf(database, query);
    expect(plan).toContain(index);
    expect(plan).toMatch(/user_disabled_idx|user_pkey/);
    expect(plan).not.toMatch(/Seq Scan on "?user"?/);
  });
});
