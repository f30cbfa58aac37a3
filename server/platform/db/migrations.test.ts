import { sql } from "drizzle-orm";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmptyDatabase, ENGINES, type TestDatabase } from "#tests/support/databases";
import { openPglite } from "./client";
import sponsorTagData from "#server/tools/seed/data/sponsor-tags.json" with { type: "json" };
import sponsorData from "#server/tools/seed/data/sponsors.json" with { type: "json" };
import { seedDatabase } from "#server/tools/seed/index";

const EXPECTED_TABLES = [
  "account", "account_suspensions", "api_idempotency_keys", "api_keys", "audit_log", "billing_customers", "billing_details", "bio_counted_visits", "bio_packages", "bio_page_daily_referrers", "bio_page_daily_views", "bio_page_link_clicks", "bio_page_views", "bio_pages",
  "connected_accounts", "content_reports", "deal_activity", "deal_briefs", "deal_disputes", "deal_files", "deal_fundings", "deal_invoices", "deal_messages", "deal_submissions", "deal_terms", "deals", "disputes", "email_outbox", "external_sponsors", "hearts", "invoice_counters", "ledger_entries", "logs", "member_post_deliveries", "member_posts", "membership_tiers", "memberships", "money_events", "notification_digests", "notification_preferences", "notifications",
  "opportunity_posts", "payment_events", "photo_variants", "photos", "pro_checkouts", "pro_memberships", "profiles", "queued_tasks", "rate_limits",
  "reconciliation_runs", "refund_requests", "scheduled_jobs", "session", "spent_captcha_nonces", "sponsor_sessions", "tags", "totals", "two_factor", "user",
  "verification", "webhook_attempts", "webhook_deliveries", "webhook_endpoints", "webhook_events",
];

async function rows<T>(database: TestDatabase | Awaited<ReturnType<typeof openPglite>>, query: ReturnType<typeof sql>) {
  const result = (await database.db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

describe.each(ENGINES)("migrations and seed on %s", (engine) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createEmptyDatabase(engine);
  });
  afterAll(() => database.dispose());

  it("creates every table from an empty database, and a second run changes nothing", async () => {
    await database.migrate();
    await database.migrate();
    const tables = await rows<{ table_name: string }>(
      database,
      sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
    );
    expect(tables.map((t) => t.table_name)).toEqual(EXPECTED_TABLES);
    // The sandbox provider's tables are its own migrations' (server/providers/payments/sandbox/migrations.test.ts).
    const [sandbox] = await rows<{ schema: string | null }>(database, sql`select to_regnamespace('sandbox')::text as schema`);
    expect(sandbox?.schema).toBeNull();
  });

  it("seeds the tag catalogue and demo data once, however often it runs", async () => {
    const first = await seedDatabase(database.db);
    const second = await seedDatabase(database.db);
    // 96 opportunity filter tags plus the sponsor directory's tag list.
    expect(first).toEqual({ tagsAdded: 96 + sponsorTagData.length, sponsors: sponsorData.length, sponsorsRetired: 0, demoAdded: true });
    expect(second).toEqual({ tagsAdded: 0, sponsors: sponsorData.length, sponsorsRetired: 0, demoAdded: false });

    const [counts] = await rows<Record<string, number>>(
      database,
      sql`select
        (select count(*)::int from tags where kind = 'state') as states,
        (select count(*)::int from tags where kind = 'sponsorship_type') as sponsorship_types,
        (select count(*)::int from tags where kind = 'external_sponsor') as sponsor_tags,
        (select count(*)::int from external_sponsors) as sponsors,
        (select count(*)::int from opportunity_posts) as posts,
        (select total from totals where name = 'opportunity posts') as total,
        (select count(*)::int from "user") as users,
        (select count(*)::int from bio_pages) as pages,
        (select count(*)::int from bio_page_views) as views,
        (select count(*)::int from logs where description = 'signup') as signups`,
    );
    expect(counts).toEqual({
      states: 51,
      sponsorship_types: 10,
      sponsor_tags: sponsorTagData.length,
      sponsors: sponsorData.length,
      posts: 48,
      total: 48,
      users: 3,
      pages: 4,
      views: 4,
      signups: 3,
    });

    const required = await rows<{ name: string }>(
      database,
      sql`select name from tags where kind = 'sponsorship_type' and name in
        ('youtube sponsorship', 'streamer sponsorship', 'podcast sponsorship', 'influencer sponsorship')`,
    );
    expect(required).toHaveLength(4);
  });

  it("gives every demo post a known tag and a newest-first id", async () => {
    const unknown = await rows<{ tag: string }>(
      database,
      sql`select distinct unnest(tags) as tag from opportunity_posts except select name from tags`,
    );
    expect(unknown).toEqual([]);
    const posts = await rows<{ id: string; date_posted: Date | string }>(
      database,
      sql`select id, date_posted from opportunity_posts order by id limit 48`,
    );
    const times = posts.map((p) => new Date(p.date_posted).getTime());
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });
});

describe("PGlite data folder", () => {
  it("keeps migrated and seeded data across close and reopen", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sg-pglite-"));
    try {
      const first = await openPglite(dir);
      await first.migrate();
      await seedDatabase(first.db);
      await first.db.execute(sql`update totals set total = total + 5 where name = 'opportunity posts'`);
      await first.close();

      const second = await openPglite(dir);
      const [row] = await rows<{ total: number }>(second, sql`select total from totals where name = 'opportunity posts'`);
      expect(row?.total).toBe(53);
      await second.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
