import { hashPassword } from "better-auth/crypto";
import { eq, sql } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import crypto from "node:crypto";
import { account, bioPageViews, bioPages, connectedAccounts, logs, membershipTiers, notifications, opportunityPosts, profiles, tags, totals, user } from "#server/platform/db/schema";
import { newOpportunityId } from "#server/domains/opportunities/ids";
import { OPPORTUNITY_POSTS_TOTAL } from "#server/domains/opportunities/totals";
import type { DemoPayoutAccount } from "#server/providers/payments/choose-provider";
import bioPageData from "#server/tools/seed/data/bio-pages.json" with { type: "json" };
import opportunityData from "#server/tools/seed/data/opportunities.json" with { type: "json" };
import { THEME_PRESETS } from "#isomorphic/bio-theme";
import { DEMO_ACCOUNTS, DEMO_PASSWORD, type DemoAccountKey } from "./demo-accounts";
import { upsertSponsorDirectory } from "./sponsor-directory";
import { OPPORTUNITY_TAG_GROUPS } from "./tag-catalogue";

// Any fixed number: app processes starting together on one new database seed one after another.
const SEED_LOCK_KEY = 7_210_431_978;

/** `sponsorsRetired`: rows of retired (unsourced) companies this run deleted, logged at start. */
export type SeedResult = { tagsAdded: number; sponsors: number; sponsorsRetired: number; demoAdded: boolean };

/**
 * Idempotent: the tag catalogue and the sponsor directory (product content,
 * so also with demo data off) are upserted on every start, and the demo data
 * goes in once, only while the demo creator does not exist. All of it runs in one
 * transaction under an advisory lock, so processes starting together seed in turn.
 */
export async function seedDatabase(db: Db, options: { now?: Date; demo?: boolean; payoutAccount?: DemoPayoutAccount } = {}): Promise<SeedResult> {
  return db.transaction(async (tx) => {
    // Held to the end of this transaction: the second process finds the demo creator there and adds nothing.
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK_KEY})`);
    return seedUnderLock(tx as unknown as Db, options);
  });
}

async function seedUnderLock(db: Db, options: { now?: Date; demo?: boolean; payoutAccount?: DemoPayoutAccount }): Promise<SeedResult> {
  const now = options.now ?? new Date();
  const tagRows = Object.entries(OPPORTUNITY_TAG_GROUPS).flatMap(([kind, names]) =>
    names.map((name) => ({ kind: kind as keyof typeof OPPORTUNITY_TAG_GROUPS, name })),
  );
  const added = await db.insert(tags).values(tagRows).onConflictDoNothing().returning({ name: tags.name });
  await db.insert(totals).values({ name: OPPORTUNITY_POSTS_TOTAL, total: 0 }).onConflictDoNothing();
  const directory = await upsertSponsorDirectory(db);
  const tagsAdded = added.length + directory.tagsAdded;

  const sponsors = { sponsors: directory.sponsors, sponsorsRetired: directory.retired };
  if (options.demo === false) return { tagsAdded, ...sponsors, demoAdded: false };
  const existing = await db.select({ id: user.id }).from(user).where(eq(user.id, DEMO_ACCOUNTS.creator.id));
  if (existing.length > 0) return { tagsAdded, ...sponsors, demoAdded: false };
  await insertDemoData(db, now, options.payoutAccount);
  return { tagsAdded, ...sponsors, demoAdded: true };
}

async function insertDemoData(db: Db, now: Date, payoutAccount: DemoPayoutAccount | undefined): Promise<void> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const people = Object.values(DEMO_ACCOUNTS);
  await db.insert(user).values(
    people.map((p) => ({ id: p.id, name: p.name, email: p.email, emailVerified: true, createdAt: now, updatedAt: now })),
  );
  await db.insert(account).values(
    people.map((p) => ({ id: `${p.id}-credential`, accountId: p.id, providerId: "credential", userId: p.id, password: passwordHash })),
  );
  await db.insert(profiles).values(people.map((p) => ({ uid: p.id, name: p.profileName, userType: p.type })));
  await db
    .insert(logs)
    .values(people.map((p) => ({ uid: p.id, collection: "users", docId: p.id, description: "signup", type: p.type })));

  const hour = 3_600_000;
  const posts = opportunityData.map((o) => {
    const posted = new Date(now.getTime() - o.postedHoursAgo * hour);
    const poster = DEMO_ACCOUNTS[o.poster as DemoAccountKey];
    return {
      id: newOpportunityId(posted),
      title: o.title,
      organization: o.organization,
      description: o.description,
      bullets: o.bullets,
      website: o.website,
      contactName: o.contactName,
      contactEmail: o.contactEmail,
      contactPhone: o.contactPhone,
      minContributionCents: o.minContributionDollars * 100,
      applicationDeadline: deadline(now, o.deadlineDaysFromNow, o.deadlineTime),
      datePosted: posted,
      updatedAt: posted,
      posterUid: poster.id,
      posterName: poster.profileName,
      // A sponsor's post is a brief creators apply to; a creator's a request sponsors make offers on.
      kind: poster.type === "sponsor" ? ("brief" as const) : ("request" as const),
      tags: [...new Set(o.tags)],
      featuredAt: o.featured ? now : null,
    };
  });
  await db.insert(opportunityPosts).values(posts);
  await db
    .update(totals)
    .set({ total: sql`${totals.total} + ${posts.length}` })
    .where(eq(totals.name, OPPORTUNITY_POSTS_TOTAL));

  const pages = bioPageData.map((p, index) => ({
    id: `demo_page_${p.customEnding}`,
    uid: DEMO_ACCOUNTS[p.owner as DemoAccountKey].id,
    customEnding: p.customEnding,
    name: p.name,
    blurb: p.blurb,
    links: p.links as (typeof bioPages.$inferInsert)["links"],
    paymentsEnabled: false,
    created: new Date(now.getTime() - (index + 1) * 24 * hour),
    updatedAt: now,
    // Each featured page a second older than the one before it in the file: the home's first phone is Maya's main page.
    featuredAt: p.featured ? new Date(now.getTime() - index * 1000) : null,
    // A preset of the picker (isomorphic/bio-theme.ts) for some demo pages; Maya's keeps the default look, which specs read.
    theme: THEME_PRESETS.find((preset) => preset.id === p.theme)?.theme ?? null,
    // The demo page shows a goal and its supporter wall, as a creator would set them up.
    wallEnabled: p.wall === true,
    goalTitle: p.goal?.title ?? null,
    goalTarget: p.goal?.target ?? null,
    goalStartedAt: p.goal ? now : null,
  }));
  await db.insert(bioPages).values(pages);
  await db.insert(bioPageViews).values(pages.map((p) => ({ pageId: p.id, uid: p.uid, count: 0 })));
  // Membership tiers on the podcast page, as a creator would offer them (ADR 0084); Maya's main page has none, which specs read.
  const tiers = bioPageData.flatMap((p) =>
    (p.tiers ?? []).map((tier, position) => ({ ...tier, id: `demo_tier_${p.customEnding}_${position}`, bioPageId: `demo_page_${p.customEnding}`, position })),
  );
  if (tiers.length > 0) await db.insert(membershipTiers).values(tiers);

  const creator = DEMO_ACCOUNTS.creator.id;
  if (payoutAccount) await connectDemoCreator(db, payoutAccount, now);
  await db.insert(notifications).values([
    {
      uid: creator,
      title: "Welcome to Sponsorgrid!",
      message: "Start by browsing opportunities, or publish a bio page so fans and brands can support you.",
      buttonText: "Browse opportunities",
      buttonDestination: "/app/opportunities",
      created: new Date(now.getTime() - 2 * hour),
    },
    {
      uid: creator,
      title: "Collect tips on your bio page",
      message: "Connect a Stripe account to receive tips and sponsorships, paid out to your bank.",
      buttonText: "Set up payments",
      buttonDestination: "/app/payments/setup",
      created: new Date(now.getTime() - hour),
    },
    {
      uid: creator,
      title: "Your profile is ready",
      message: "Your public profile name is Maya Makes. You can change it on My Account.",
      unread: false,
      readOn: new Date(now.getTime() - 3 * hour),
      created: new Date(now.getTime() - 4 * hour),
    },
  ]);
}

/**
 * The demo creator's page takes tips out of the box: her payout account is
 * complete at the provider, and our row and her profile say what the provider
 * says (as account-state.ts writes them from its word). Tips are on by
 * default. No payments are seeded: money only enters through the ledger's
 * real path (a checkout paid at the provider and its webhook).
 */
async function connectDemoCreator(db: Db, payoutAccount: DemoPayoutAccount, now: Date): Promise<void> {
  const maya = DEMO_ACCOUNTS.creator;
  const accountId = await payoutAccount(db, { uid: maya.id, email: maya.email, legalName: maya.name }, now);
  await db.insert(connectedAccounts).values({ uid: maya.id, stateToken: crypto.randomBytes(24).toString("base64url"), providerAccountId: accountId, completed: true, created: now });
  await db.update(profiles).set({ paymentsEnabled: true }).where(eq(profiles.uid, maya.id));
}

function deadline(now: Date, daysFromNow: number | null, time: string): Date | null {
  if (daysFromNow === null) return null;
  const day = new Date(now.getTime() + daysFromNow * 86_400_000).toISOString().slice(0, 10);
  return new Date(`${day}T${time}:00Z`);
}
