import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "#server/platform/db/client";
import { bioPages, connectedAccounts, memberships, membershipTiers, sponsorSessions, user, type MembershipStatus, type SponsorSessionStatus } from "#server/platform/db/schema";
import { createRenderedPages } from "#server/domains/bio/host/rendered-pages";
import { recordDispute, recordPayment, recordRefund } from "#server/domains/payments/ledger/ledger";
import { startGenerationSource } from "#server/platform/page-cache/setup";
import type { RunningGenerationSource } from "#server/platform/page-cache/generation";
import { createMigratedDatabase, ENGINES, type TestDatabase } from "#tests/support/databases";
import { goalProgress, goalRaised } from "./goal";
import { readPublicPage } from "./public-page";
import { listSupporters, readWall, readWallMembers, setHiddenFromWall } from "./wall";
import { parseWallGoal, readWallGoalSettings, saveWallGoal } from "./wall-goal-settings";

const rand = () => crypto.randomBytes(5).toString("hex");

type Creator = { uid: string; pageId: string; ending: string };

async function creator(db: Db): Promise<Creator> {
  const uid = `creator_${rand()}`;
  const pageId = `page${rand()}`;
  const ending = `wall_${rand()}`;
  await db.insert(user).values({ id: uid, name: `Creator ${uid}`, email: `${uid}@wall.example`, emailVerified: true });
  await db.insert(connectedAccounts).values({ uid, stateToken: `state_${rand()}`, providerAccountId: `acct_${rand()}`, completed: true });
  await db.insert(bioPages).values({ id: pageId, uid, customEnding: ending, name: `Page of ${uid}` });
  return { uid, pageId, ending };
}

type SupportOptions = {
  amount?: number;
  currency?: string;
  status?: SponsorSessionStatus;
  name?: string | null;
  message?: string;
  private?: boolean;
  hidden?: boolean;
  created?: Date;
  /** Record the payment in the ledger (default: when the status says money arrived). */
  paidAt?: Date | null;
};

/** A support of `page`, its row as checkout and the webhooks leave it, its payment in the ledger. */
async function support(db: Db, page: Creator, options: SupportOptions = {}) {
  const id = `ss_${rand()}`;
  const amount = options.amount ?? 2500;
  const currency = options.currency ?? "usd";
  const status = options.status ?? "completed";
  await db.insert(sponsorSessions).values({
    id,
    provider: "sandbox",
    posterUid: page.uid,
    bioPageId: page.pageId,
    destinationAccountId: "acct_x",
    amount,
    currency,
    message: options.message ?? "Keep going!",
    supporterName: options.name ?? null,
    private: options.private ?? false,
    hiddenFromWall: options.hidden ?? false,
    status,
    created: options.created ?? new Date(),
  });
  const paymentIntentId = `pi_${rand()}`;
  const paid = options.paidAt !== undefined ? options.paidAt : status === "pending" ? null : new Date();
  if (paid) {
    await recordPayment(db, { sessionId: id, paymentIntentId, gross: amount, providerFee: 30, platformFee: 0, currency });
    if (options.paidAt) await db.execute(`update ledger_entries set created = '${paid.toISOString()}' where session_id = '${id}'`);
  }
  return { id, paymentIntentId, amount, currency };
}

const refund = (db: Db, s: { id: string; paymentIntentId: string; amount: number; currency: string }, amount = s.amount) =>
  recordRefund(db, { sessionId: s.id, paymentIntentId: s.paymentIntentId, amount, currency: s.currency, payment: { gross: s.amount, platformFee: 0 } });

describe("goal progress figures", () => {
  it("caps the bar at 100 % but keeps the real figures", () => {
    expect(goalProgress({ title: "Camera", target: 50_000 }, 12_000)).toMatchObject({ raised: 12_000, percent: 24, barPercent: 24, currency: "usd" });
    expect(goalProgress({ title: "Camera", target: 50_000 }, 75_000)).toMatchObject({ raised: 75_000, percent: 150, barPercent: 100 });
    expect(goalProgress({ title: "Camera", target: 50_000 }, -500)).toMatchObject({ raised: 0, percent: 0, barPercent: 0 });
    // Rounded down: the bar never shows the goal reached before it is.
    expect(goalProgress({ title: "Camera", target: 300 }, 299)).toMatchObject({ percent: 99, barPercent: 99 });
  });
});

describe("the goal form", () => {
  const form = (fields: Partial<{ wallEnabled: boolean; goalTitle: string; goalTarget: string; removeGoal: boolean }>) =>
    parseWallGoal({ wallEnabled: false, goalTitle: "", goalTarget: "", removeGoal: false, ...fields });
  it("takes a title and a dollar target in minor units", () => {
    expect(form({ goalTitle: "  New   camera ", goalTarget: "$1,250.50" })).toEqual({ kind: "SUCCESS", wallEnabled: false, goal: { title: "New camera", target: 125_050 } });
    expect(form({ wallEnabled: true })).toEqual({ kind: "SUCCESS", wallEnabled: true, goal: null });
    expect(form({ goalTitle: "x", goalTarget: "5", removeGoal: true })).toEqual({ kind: "SUCCESS", wallEnabled: false, goal: null });
  });
  it.each([
    [{ goalTitle: "Camera", goalTarget: "0" }, { goalTarget: "The target must be more than $0" }],
    [{ goalTitle: "Camera", goalTarget: "-5" }, { goalTarget: "Enter an amount in dollars, like 500 or 499.99" }],
    [{ goalTitle: "Camera", goalTarget: "5.555" }, { goalTarget: "Enter an amount in dollars, like 500 or 499.99" }],
    [{ goalTitle: "Camera", goalTarget: "1000000.01" }, { goalTarget: "The target can be at most $1,000,000" }],
    [{ goalTitle: "Camera" }, { goalTarget: "Enter the amount you want to raise" }],
    [{ goalTarget: "500" }, { goalTitle: "Give your goal a title, like “New camera”" }],
    [{ goalTitle: "é".repeat(101), goalTarget: "500" }, { goalTitle: "Keep the title to 100 characters or fewer" }],
  ])("refuses %j", (fields, fieldErrors) => {
    expect(form(fields)).toMatchObject({ kind: "ERROR", code: "invalid-argument", fieldErrors });
  });
});

describe.each(ENGINES)("wall and goal on %s", (engine) => {
  let database: TestDatabase;
  let db: Db;
  let source: RunningGenerationSource;
  beforeAll(async () => {
    database = await createMigratedDatabase(engine);
    db = database.db;
    source = await startGenerationSource(database);
  });
  afterAll(async () => {
    await source?.close();
    await database?.dispose();
  });

  it("sums what supporters paid, less refunds and disputes, in the page's currency only, never below zero", async () => {
    const page = await creator(db);
    const other = await creator(db);
    expect(await goalRaised(db, page.pageId, null)).toBe(0);
    await support(db, page, { amount: 10_000 });
    const refunded = await support(db, page, { amount: 2_500, status: "refunded" });
    await refund(db, refunded);
    const disputed = await support(db, page, { amount: 4_000, status: "disputed" });
    await recordDispute(db, { sessionId: disputed.id, disputeId: `dp_${rand()}`, amount: 4_000, providerFee: 1_500, currency: "usd", payment: { gross: 4_000, platformFee: 0 } });
    await support(db, page, { amount: 9_900, currency: "eur" });
    await support(db, page, { amount: 7_000, status: "pending" });
    await support(db, other, { amount: 50_000 });
    expect(await goalRaised(db, page.pageId, null)).toBe(10_000);
    // A partial refund subtracts what went back.
    const partly = await support(db, page, { amount: 3_000 });
    await refund(db, partly, 1_000);
    expect(await goalRaised(db, page.pageId, null)).toBe(12_000);
  });

  it("counts from when the goal was set: a refund of an older payment does not pull it down, or below zero", async () => {
    const page = await creator(db);
    const started = new Date(Date.now() - 60_000);
    const before = await support(db, page, { amount: 5_000, paidAt: new Date(started.getTime() - 86_400_000) });
    await support(db, page, { amount: 2_000, paidAt: new Date(started.getTime() + 1_000) });
    await refund(db, before);
    expect(await goalRaised(db, page.pageId, started)).toBe(2_000);
    // Over all time the refund is the payment's own: nothing below zero either way.
    expect(await goalRaised(db, page.pageId, null)).toBe(2_000);
    // A payment both refunded and disputed went back twice in the ledger: the bar stops at zero.
    const lone = await creator(db);
    const twice = await support(db, lone, { amount: 3_000, status: "disputed" });
    await refund(db, twice);
    await recordDispute(db, { sessionId: twice.id, disputeId: `dp_${rand()}`, amount: 3_000, providerFee: 1_500, currency: "usd", payment: { gross: 3_000, platformFee: 0 } });
    expect(await goalRaised(db, lone.pageId, null)).toBe(0);
  });

  it("saves a goal, keeps its start through an edit, restarts it after removal; only the owner can", async () => {
    const page = await creator(db);
    const stranger = await creator(db);
    const input = { wallEnabled: true, goalTitle: "Camera", goalTarget: "500", removeGoal: false };
    expect(await saveWallGoal(db, { uid: stranger.uid }, page.pageId, input)).toMatchObject({ kind: "ERROR", code: "not-found" });
    expect(await readWallGoalSettings(db, { uid: stranger.uid }, page.pageId)).toMatchObject({ kind: "ERROR", code: "not-found" });

    const first = new Date("2026-11-01T00:00:00Z");
    expect(await saveWallGoal(db, { uid: page.uid }, page.pageId, input, first)).toEqual({ kind: "SUCCESS", wallEnabled: true, hasGoal: true });
    await saveWallGoal(db, { uid: page.uid }, page.pageId, { ...input, goalTarget: "800" }, new Date("2026-11-10T00:00:00Z"));
    const startedAt = async () => (await db.select({ at: bioPages.goalStartedAt }).from(bioPages).where(eq(bioPages.id, page.pageId)))[0]!.at;
    expect(await startedAt()).toEqual(first);
    await support(db, page, { amount: 12_000 });
    expect(await readWallGoalSettings(db, { uid: page.uid }, page.pageId)).toMatchObject({
      kind: "SUCCESS",
      settings: { wallEnabled: true, goalTitle: "Camera", goalTarget: 80_000, progress: { raised: 12_000, percent: 15 } },
    });

    await saveWallGoal(db, { uid: page.uid }, page.pageId, { ...input, removeGoal: true });
    expect(await startedAt()).toBeNull();
    expect((await readPublicPage(db, page.ending))?.goal).toBeNull();
    const later = new Date(Date.now() + 1_000);
    await saveWallGoal(db, { uid: page.uid }, page.pageId, input, later);
    expect(await startedAt()).toEqual(later);
    expect((await readPublicPage(db, page.ending))?.goal).toMatchObject({ title: "Camera", target: 50_000, raised: 0 });
  });

  it("the wall: standing supports only, newest first, private ones without name or message, hidden ones never, at most ten", async () => {
    const page = await creator(db);
    const t = (minutes: number) => new Date(Date.UTC(2026, 10, 20, 12, minutes));
    await support(db, page, { name: " Ada ", message: "For the camera", amount: 500, created: t(1) });
    await support(db, page, { private: true, name: "Secret Sam", message: "Don't tell", created: t(2) });
    await support(db, page, { hidden: true, name: "Hidden Hal", created: t(3) });
    await refund(db, await support(db, page, { status: "refunded", name: "Refunded Rae", created: t(4) }));
    await support(db, page, { status: "pending", name: "Pending Pat", created: t(5) });
    await support(db, page, { status: "disputed", name: "Disputed Dan", created: t(6) });
    await support(db, page, { name: null, message: "No name", created: t(7) });

    const wall = await readWall(db, page.pageId);
    expect(wall.map((e) => [e.name, e.message, e.private])).toEqual([
      [null, "No name", false],
      [null, null, true],
      ["Ada", "For the camera", false],
    ]);
    expect(wall[1]).toMatchObject({ amount: null });
    expect(wall[2]).toMatchObject({ amount: 500, currency: "usd", at: t(1) });

    for (let i = 0; i < 12; i += 1) await support(db, page, { name: `Fan ${i}`, created: t(10 + i) });
    const full = await readWall(db, page.pageId);
    expect(full).toHaveLength(10);
    expect(full[0]!.name).toBe("Fan 11");
    expect(full[9]!.name).toBe("Fan 2");

    // Off unless the owner turned it on.
    expect((await readPublicPage(db, page.ending))?.wall).toBeNull();
    await db.update(bioPages).set({ wallEnabled: true }).where(eq(bioPages.id, page.pageId));
    expect((await readPublicPage(db, page.ending))?.wall).toHaveLength(10);
  });

  it("the owner hides and shows any of their supports; anyone else's is not found", async () => {
    const page = await creator(db);
    const stranger = await creator(db);
    const mine = await support(db, page, { name: "Ada" });
    const theirs = await support(db, stranger, { name: "Bo" });

    expect(await setHiddenFromWall(db, { uid: stranger.uid }, { pageId: page.pageId, sessionId: mine.id, hidden: true })).toMatchObject({ kind: "ERROR", code: "not-found" });
    // Their own page id with my session: still not found.
    expect(await setHiddenFromWall(db, { uid: stranger.uid }, { pageId: stranger.pageId, sessionId: mine.id, hidden: true })).toMatchObject({ kind: "ERROR", code: "not-found" });
    expect(await setHiddenFromWall(db, { uid: page.uid }, { pageId: page.pageId, sessionId: theirs.id, hidden: true })).toMatchObject({ kind: "ERROR", code: "not-found" });
    expect(await setHiddenFromWall(db, { uid: page.uid }, { pageId: page.pageId, sessionId: "not a session", hidden: true })).toMatchObject({ kind: "ERROR", code: "not-found" });
    expect((await readWall(db, page.pageId)).map((e) => e.id)).toEqual([mine.id]);

    expect(await setHiddenFromWall(db, { uid: page.uid }, { pageId: page.pageId, sessionId: mine.id, hidden: true })).toEqual({ kind: "SUCCESS", hidden: true });
    expect(await readWall(db, page.pageId)).toEqual([]);
    const list = await listSupporters(db, { uid: page.uid }, page.pageId);
    expect(list).toMatchObject({ kind: "SUCCESS", list: { supporters: [{ id: mine.id, name: "Ada", hidden: true, onWall: false }] } });
    expect(await listSupporters(db, { uid: stranger.uid }, page.pageId)).toMatchObject({ kind: "ERROR", code: "not-found" });

    await setHiddenFromWall(db, { uid: page.uid }, { pageId: page.pageId, sessionId: mine.id, hidden: false });
    expect((await readWall(db, page.pageId)).map((e) => e.id)).toEqual([mine.id]);
  });

  it("a payment, a refund and hiding a supporter redraw the cached page", async () => {
    const page = await creator(db);
    const input = { wallEnabled: true, goalTitle: "Camera", goalTarget: "100", removeGoal: false };
    await saveWallGoal(db, { uid: page.uid }, page.pageId, input, new Date(Date.now() - 60_000));
    const pages = createRenderedPages({ db, generation: source, site: { bioOrigin: "http://bio.test", publicOrigin: "http://app.test", appName: "Sponsorgrid" }, maxAgeMs: 3_600_000 });
    // Asked as a person who has just paid or saved asks (ADR 0046): right after the commit, from any process.
    const html = async () => {
      const got = await pages.get(page.ending, { synced: true });
      if (!got || got === "unavailable") throw new Error("no page");
      return got.identity.toString("utf8");
    };
    expect(await html()).toContain("$0 of $100 raised · 0%");
    expect(await html()).toContain("No supporters yet: be the first.");

    const paid = await support(db, page, { amount: 2_500, name: "Ada <3", message: "Go!" });
    const afterPayment = await html();
    expect(afterPayment).toContain("$25 of $100 raised · 25%");
    expect(afterPayment).toContain("<b>Ada &lt;3</b>");

    await db.update(sponsorSessions).set({ status: "refunded" }).where(eq(sponsorSessions.id, paid.id));
    await refund(db, paid);
    const afterRefund = await html();
    expect(afterRefund).toContain("$0 of $100 raised · 0%");
    expect(afterRefund).not.toContain("Ada");

    const other = await support(db, page, { amount: 1_000, name: "Bo" });
    expect(await html()).toContain("<b>Bo</b>");
    await setHiddenFromWall(db, { uid: page.uid }, { pageId: page.pageId, sessionId: other.id, hidden: true });
    expect(await html()).not.toContain("<b>Bo</b>");
  });

  it("members show once each under their tier, current ones only, private ones counted, and joining redraws the cached page", async () => {
    const page = await creator(db);
    await saveWallGoal(db, { uid: page.uid }, page.pageId, { wallEnabled: true, goalTitle: "", goalTarget: "", removeGoal: true }, new Date(Date.now() - 60_000));
    const tier = async (name: string, position: number) => {
      const id = `tier_${rand()}`;
      await db.insert(membershipTiers).values({ id, bioPageId: page.pageId, name, monthlyPrice: 500, position });
      return id;
    };
    const gold = await tier("Gold", 1);
    const silver = await tier("Silver", 0);
    const member = async (tierId: string, name: string | null, status: MembershipStatus, isPrivate = false) => {
      const id = `mem_${rand()}`;
      await db.insert(memberships).values({
        id, tierId, bioPageId: page.pageId, creatorUid: page.uid, memberName: name, private: isPrivate, provider: "sandbox",
        destinationAccountId: "acct_x", amount: 500, status, startedAt: new Date(),
      });
      return id;
    };
    const pages = createRenderedPages({ db, generation: source, site: { bioOrigin: "http://bio.test", publicOrigin: "http://app.test", appName: "Sponsorgrid" }, maxAgeMs: 3_600_000 });
    const html = async () => {
      const got = await pages.get(page.ending, { synced: true });
      if (!got || got === "unavailable") throw new Error("no page");
      return got.identity.toString("utf8");
    };
    expect(await html()).not.toContain("<h3>Members</h3>");

    await member(gold, "Ada", "active");
    await member(gold, "Secret Sam", "past_due", true);
    await member(gold, null, "cancelled");
    await member(silver, "Bo", "active");
    await member(silver, "Gone Gus", "ended");
    await member(silver, "Never Paid", "pending");
    expect(await readWallMembers(db, page.pageId)).toEqual([
      { tierName: "Silver", names: ["Bo"], others: 0 },
      { tierName: "Gold", names: ["Ada"], others: 2 },
    ]);
    const shown = await html();
    expect(shown).toContain("<li><b>Silver</b>Bo</li><li><b>Gold</b>Ada, and 2 more</li>");
    expect(shown).not.toContain("Secret Sam");
    expect(shown).not.toContain("Gone Gus");

    // A member's paid period is a sponsor session of kind membership: the tips list does not repeat them.
    await db.insert(sponsorSessions).values({
      id: `ss_${rand()}`, kind: "membership", provider: "sandbox", posterUid: page.uid, bioPageId: page.pageId, destinationAccountId: "acct_x",
      amount: 500, message: "", supporterName: "Ada", status: "completed",
    });
    expect((await readWall(db, page.pageId)).map((entry) => entry.name)).toEqual([]);
  });
});
