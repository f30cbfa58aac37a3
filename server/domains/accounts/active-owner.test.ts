import { whyPayeeCannotBePaid } from "#server/domains/payments/checkout/payee-standing";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disableAccount, enableAccount } from "#server/domains/auth/sessions";
import { readPublicPage } from "#server/domains/bio/public-page";
import type { Db } from "#server/platform/db/client";
import { bioPages, connectedAccounts, hearts, opportunityPosts, profiles, user } from "#server/platform/db/schema";
import { seedDatabase } from "#server/tools/seed";
import { DEMO_ACCOUNTS } from "#server/tools/seed/demo-accounts";
import { listFeatured } from "#server/features/featured/featured";
import { toggleHeart } from "#server/domains/opportunities/hearts";
import { listOpportunities } from "#server/domains/opportunities/list";
import type { ListQuery } from "#server/domains/opportunities/list-query";
import { getOpportunity, listLikedBy } from "#server/domains/opportunities/read";
import { buildSponsorSession } from "#server/domains/payments/checkout/sponsor-session";
import { payCheckout } from "#server/providers/payments/sandbox/pay";
import { createSandboxProvider, type SandboxProvider } from "#server/providers/payments/sandbox/provider";
import { sandboxCheckouts } from "#server/providers/payments/sandbox/schema";
import { loadCheckoutOffer } from "#server/domains/payments/checkout/start-checkout";
import { listProfiles } from "#server/features/profiles/directory";
import { buildSitemap } from "#server/features/sitemap/sitemap";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { OWNER_UNAVAILABLE_PAYMENT_MESSAGE } from "./active-owner";

const jordan = DEMO_ACCOUNTS.sponsor;
const maya = DEMO_ACCOUNTS.creator;

/** Every post id the public list shows, page after page (keyset), optionally under one tag. */
async function listedIds(db: Db, tags: string[] = []): Promise<string[]> {
  const ids: string[] = [];
  let query: ListQuery = { tags, after: null, before: null, page: 0 };
  for (;;) {
    const page = await listOpportunities(db, query, maya.id);
    ids.push(...page.items.map((item) => item.id));
    if (!page.hasNext) return ids;
    query = { ...query, after: page.items.at(-1)!.id, page: query.page + 1 };
  }
}

/** Everything public a reader shows, as ids and endings, from the viewer Maya's side. */
async function publicSide(db: Db) {
  const featured = await listFeatured(db, maya.id, 50);
  const sitemap = await buildSitemap(db, { origin: "http://app.test", pages: [], part: null });
  const profilePages = [1, 2, 3].map((page) => listProfiles(db, "", page));
  return {
    list: await listedIds(db),
    featuredPosts: featured.opportunities.map((post) => post.id),
    featuredPages: featured.pages.map((page) => page.customEnding),
    liked: (await listLikedBy(db, maya.id, null)).items.map((post) => post.id),
    profiles: (await Promise.all(profilePages)).flatMap((page) => page.items.map((card) => card.customEnding)),
    profilesByName: (await listProfiles(db, "Northwind", 1)).items.map((card) => card.customEnding),
    sitemap: sitemap.xml,
  };
}

describe.each(ENGINES)("a disabled account's public side on %s", (engine) => {
  const database = migratedDatabase(engine);
  let jordansPosts: string[] = [];
  let taggedPost: { id: string; tag: string };

  beforeAll(async () => {
    await seedDatabase(database.db);
    const rows = await database.db
      .select({ id: opportunityPosts.id, tags: opportunityPosts.tags })
      .from(opportunityPosts)
      .where(eq(opportunityPosts.posterUid, jordan.id));
    jordansPosts = rows.map((row) => row.id);
    taggedPost = { id: rows[0]!.id, tag: rows[0]!.tags[0]! };
    // Maya saved one of Jordan's posts: it is in her Liked Posts.
    await database.db.insert(hearts).values({ id: `${taggedPost.id}_${maya.id}`, postId: taggedPost.id, uid: maya.id });
  });

  it("leaves every list and page while disabled, and comes back whole once enabled", async () => {
    const db = database.db;
    const before = await publicSide(db);
    // The seed gives Jordan featured posts, a featured bio page and a saved post: each list has something to lose.
    expect(before.list).toEqual(expect.arrayContaining(jordansPosts));
    expect(before.featuredPosts.some((id) => jordansPosts.includes(id))).toBe(true);
    expect(before.featuredPages).toContain("northwind_audio");
    expect(before.liked).toContain(taggedPost.id);
    expect(before.profiles).toContain("northwind_audio");
    expect(before.profilesByName).toEqual(["northwind_audio"]);
    expect(before.sitemap).toContain(`/app/opportunities/${taggedPost.id}<`);

    expect(await disableAccount(db, jordan.email)).toBe(true);
    const during = await publicSide(db);
    const others = (ids: string[]) => ids.filter((id) => !jordansPosts.includes(id));
    expect(during.list).toEqual(others(before.list));
    expect(during.featuredPosts).toEqual(others(before.featuredPosts));
    expect(during.featuredPages).toEqual(before.featuredPages.filter((ending) => ending !== "northwind_audio"));
    expect(during.liked).toEqual(others(before.liked));
    expect(during.profiles).toEqual(before.profiles.filter((ending) => ending !== "northwind_audio"));
    expect(during.profilesByName).toEqual([]);
    for (const id of jordansPosts) expect(during.sitemap).not.toContain(id);
    expect(await listedIds(db, [taggedPost.tag])).not.toContain(taggedPost.id);
    expect(await getOpportunity(db, taggedPost.id, maya.id)).toBeNull();
    expect(await toggleHeart(db, taggedPost.id, maya.id)).toMatchObject({ kind: "ERROR", code: "not-found" });
    expect(await readPublicPage(db, "northwind_audio")).toMatchObject({ ownerActive: false, sponsorships: [] });
    // Nothing of anyone else's changed.
    expect(await readPublicPage(db, "mayamakes")).toMatchObject({ ownerActive: true });

    expect(await enableAccount(db, jordan.email)).toBe(true);
    expect(await publicSide(db)).toEqual(before);
    expect(await listedIds(db, [taggedPost.tag])).toContain(taggedPost.id);
    expect(await getOpportunity(db, taggedPost.id, maya.id)).toMatchObject({ id: taggedPost.id, liked: true });
    expect(await readPublicPage(db, "northwind_audio")).toMatchObject({ ownerActive: true });
  });
});

describe.each(ENGINES)("payments to a disabled account's page on %s", (engine) => {
  const database = migratedDatabase(engine);
  const ORIGIN = "http://app.test";
  const options = { platformFeePercent: 10, publicOrigin: ORIGIN };
  const email = "payee@pay.example";
  const card = { email: "fan@example.com", number: "4242424242424242", expiry: "12/34", cvc: "123", postalCode: "94107" };
  let sandbox: SandboxProvider;
  const tip = { ending: "payee_page", kind: "tip" as const, amount: 2500, sponsorEmail: "fan@example.com", message: "Thanks", sponsorUid: null, client: null };

  beforeAll(async () => {
    const db = database.db;
    const fakeFetch = (async () => new Response(null, { status: 200 })) as unknown as typeof fetch;
    sandbox = createSandboxProvider({ db, config: { PUBLIC_ORIGIN: ORIGIN }, sessionSecret: "a-session-secret-of-at-least-32-characters", whyPayeeCannotBePaid: (sessionId) => whyPayeeCannotBePaid(db, sessionId), fetch: fakeFetch });
    const { accountId } = await sandbox.createConnectedAccount({ idempotencyKey: "a1", email, accountType: "individual", uid: "payee" });
    await sandbox.completeOnboarding(accountId, { legalName: "Payee LLC", country: "US", bankAccount: "000123456789" });
    await db.insert(user).values({ id: "payee", name: "Payee", email, emailVerified: true });
    await db.insert(profiles).values({ uid: "payee", paymentsEnabled: true });
    await db.insert(connectedAccounts).values({ uid: "payee", stateToken: "state_payee", providerAccountId: accountId, completed: true });
    await db.insert(bioPages).values({ id: "pagepayee", uid: "payee", customEnding: "payee_page", name: "Payee's page" });
  });
  afterAll(() => sandbox?.close());

  it("refuses a new checkout and the pay step of an open one, and takes both again once enabled", async () => {
    const db = database.db;
    const open = await buildSponsorSession(db, sandbox, tip, options);
    expect(open.kind).toBe("SUCCESS");
    if (open.kind !== "SUCCESS") return;
    const [checkout] = await db.select({ id: sandboxCheckouts.id }).from(sandboxCheckouts).where(eq(sandboxCheckouts.sessionId, open.sessionId));

    await disableAccount(db, email);
    expect(await buildSponsorSession(db, sandbox, tip, options)).toEqual({ kind: "ERROR", code: "aborted", message: OWNER_UNAVAILABLE_PAYMENT_MESSAGE });
    const offer = await loadCheckoutOffer(db, { ending: "payee_page", kind: "tip", postId: null });
    expect(offer).toMatchObject({ kind: "SUCCESS", offer: { unavailable: OWNER_UNAVAILABLE_PAYMENT_MESSAGE, takesPayments: false } });
    expect(await payCheckout(db, checkout!.id, card, new Date(), sandbox.whyPayeeCannotBePaid)).toEqual({ kind: "ERROR", code: "aborted", reason: "PAYEE_UNAVAILABLE", message: OWNER_UNAVAILABLE_PAYMENT_MESSAGE });
    const [unpaid] = await db.select({ status: sandboxCheckouts.status }).from(sandboxCheckouts).where(eq(sandboxCheckouts.id, checkout!.id));
    expect(unpaid!.status).toBe("open");

    await enableAccount(db, email);
    expect(await loadCheckoutOffer(db, { ending: "payee_page", kind: "tip", postId: null })).toMatchObject({ offer: { unavailable: null, takesPayments: true } });
    expect(await payCheckout(db, checkout!.id, card, new Date(), sandbox.whyPayeeCannotBePaid)).toMatchObject({ kind: "SUCCESS", outcome: "PAID" });
    expect((await buildSponsorSession(db, sandbox, tip, options)).kind).toBe("SUCCESS");
  });
});
