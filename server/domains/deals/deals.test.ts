import { and, asc, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { notificationDeps } from "#tests/support/payments";
import { parsedTerms, TERMS_FORM } from "#tests/support/deal-terms";
import { bioPages, dealActivity, deals, notifications, opportunityPosts, profiles, rateLimits } from "#server/platform/db/schema";
import { consumeRateLimit, rateLimitKey } from "#server/platform/abuse/rate-limit";
import { DEAL_RATE_LIMITS } from "#server/platform/abuse/rules";
import { seedDatabase } from "#server/tools/seed";
import { DEMO_ACCOUNTS } from "#server/tools/seed/demo-accounts";
import { moveDeal } from "./act";
import { openDeal, openDirectOffer } from "./open-deal";
import { dealsOnOpportunity, feeSplit, myDeals, readDeal } from "./read";
import { postDealMessage, readDealThread } from "./thread";
import { parseTerms, type TermsFormFields } from "./terms-form";

const creator = DEMO_ACCOUNTS.creator.id;
const sponsor = DEMO_ACCOUNTS.sponsor.id;
const otherSponsor = DEMO_ACCOUNTS.sponsor2.id;

const terms = parsedTerms;

describe("the terms form", () => {
  it("reads dollars as minor units, drops empty deliverable rows and keeps usage days only with rights", () => {
    const parsed = terms({ price: "$1,250.50", usageRights: "none", deliverableChannel: ["YouTube", ""], deliverableFormat: ["60-second integration", ""], deliverableDue: ["2099-03-01", ""] });
    expect(parsed.price).toBe(125_050);
    expect(parsed.deliverables).toEqual([{ channel: "YouTube", format: "60-second integration", dueDate: "2099-03-01" }]);
    expect(parsed.usageDays).toBe(0);
  });

  it("says what is wrong with each field at once", () => {
    const parsed = parseTerms({ ...TERMS_FORM, price: "12.345", deliverableDue: ["2001-01-01"], autoApproveDays: "0" });
    expect(parsed.kind).toBe("ERROR");
    if (parsed.kind !== "ERROR") return;
    expect(parsed.fieldErrors).toEqual({
      price: "Enter the price in dollars, like 750 or 750.50",
      deliverables: "A due date cannot be in the past",
      autoApproveDays: "The approval window must be a whole number of days from 1 to 30",
    });
    const incomplete = parseTerms({ ...TERMS_FORM, price: "0.10", deliverableChannel: ["YouTube"], deliverableFormat: [""], deliverableDue: [""] });
    expect(incomplete.kind === "ERROR" && incomplete.fieldErrors).toEqual({
      price: "The price must be from $0.50 to $10,000",
      deliverables: "Give each deliverable a channel, what is made and a due date",
    });
  });

  it("shows both sides the platform's fee and what reaches the creator, in whole minor units", () => {
    expect(feeSplit(75_000, 5)).toEqual({ price: 75_000, platformFee: 3_750, creatorReceives: 71_250, percent: 5 });
    expect(feeSplit(999, 2.5)).toEqual({ price: 999, platformFee: 25, creatorReceives: 974, percent: 2.5 });
  });
});

describe.each(ENGINES)("deals on %s", (engine) => {
  const database = migratedDatabase(engine);

  /** A deal as `uid` reads it, and the thread read (and marked) from that read, as the deal page does. */
  const viewOf = async (uid: string, dealId: string) => (await readDeal(database.db, uid, dealId))?.view ?? null;
  async function threadOf(uid: string, dealId: string) {
    const found = await readDeal(database.db, uid, dealId);
    return found ? readDealThread(database.db, found.thread) : null;
  }

  let brief: string;
  let request: string;
  const deps = () => notificationDeps(database.db);
  const apply = (uid: string, opportunityId: string, overrides: Partial<TermsFormFields> = {}) =>
    openDeal(database.db, deps(), { uid, opportunityId, pitch: "My audience loves gear reviews.", links: "https://example.com/media-kit", bioPageId: "", terms: terms(overrides), network: "203.0.113.9" });

  beforeAll(async () => {
    await seedDatabase(database.db);
    const posts = await database.db.select({ id: opportunityPosts.id, kind: opportunityPosts.kind, poster: opportunityPosts.posterUid }).from(opportunityPosts);
    brief = posts.find((p) => p.poster === sponsor && p.kind === "brief")!.id;
    request = posts.find((p) => p.poster === creator && p.kind === "request")!.id;
  });

  it("runs the seeded posts the way their posters' account types say", async () => {
    const posts = await database.db.select({ kind: opportunityPosts.kind, poster: opportunityPosts.posterUid }).from(opportunityPosts);
    expect(posts.filter((p) => p.poster === creator).every((p) => p.kind === "request")).toBe(true);
    expect(posts.filter((p) => p.poster !== creator).every((p) => p.kind === "brief")).toBe(true);
  });

  it("takes a creator's application to a brief, tells the sponsor, and keeps one live deal per person", async () => {
    const opened = await apply(creator, brief);
    expect(opened.kind).toBe("SUCCESS");
    if (opened.kind !== "SUCCESS") return;
    const seen = await viewOf(sponsor, opened.dealId);
    expect(seen).toMatchObject({ origin: "application", state: "proposed", side: "sponsor", waitingOnYou: true, openedBy: "creator", actions: ["counter", "accept", "decline", "withdraw", "shortlist"] });
    expect(seen!.versions.map((v) => [v.version, v.proposedBy, v.price])).toEqual([[1, "creator", 75_000]]);
    const told = await database.db.select().from(notifications).where(and(eq(notifications.uid, sponsor), eq(notifications.kind, "deal-activity")));
    expect(told.map((n) => n.message)).toContain(`Maya Makes applied to “${seen!.title}” for $750.`);

    expect(await apply(creator, brief)).toMatchObject({ kind: "ERROR", reason: "ALREADY_OPEN", dealId: opened.dealId });
    expect(await apply(sponsor, brief)).toMatchObject({ kind: "ERROR", reason: "OWN_OPPORTUNITY" });
    expect(await viewOf(otherSponsor, opened.dealId)).toBeNull();
    expect(await dealsOnOpportunity(database.db, otherSponsor, brief)).toEqual([]);
    expect((await dealsOnOpportunity(database.db, sponsor, brief)).map((d) => [d.id, d.otherName, d.waitingOnYou])).toEqual([[opened.dealId, "Maya Makes", true]]);
  });

  it("goes back and forth, keeps every version, and agrees only once the creator can be paid, recording who, when and from where", async () => {
    const opened = await apply(otherSponsor, request, { price: "400" });
    expect(opened.kind).toBe("SUCCESS");
    if (opened.kind !== "SUCCESS") return;
    const { dealId } = opened;
    const move = (uid: string, m: Parameters<typeof moveDeal>[2]["move"]) => moveDeal(database.db, deps(), { uid, dealId, move: m, network: "198.51.100.4" });

    expect(await move(otherSponsor, { action: "counter", terms: terms({ price: "450" }) })).toMatchObject({ kind: "ERROR", reason: "NOT_YOUR_TURN" });
    expect(await move(sponsor, { action: "withdraw" })).toMatchObject({ kind: "ERROR", code: "not-found" });
    expect(await move(creator, { action: "counter", terms: terms({ price: "600", exclusivityDays: "14" }) })).toMatchObject({ kind: "SUCCESS" });
    expect(await move(otherSponsor, { action: "counter", terms: terms({ price: "500" }) })).toMatchObject({ kind: "SUCCESS" });
    await database.db.update(profiles).set({ paymentsEnabled: false }).where(eq(profiles.uid, creator));
    expect(await move(creator, { action: "accept", version: 3 })).toMatchObject({ kind: "ERROR", reason: "PAYOUTS_NEEDED" });
    await database.db.update(profiles).set({ paymentsEnabled: true }).where(eq(profiles.uid, creator));
    expect(await move(creator, { action: "accept", version: 2 })).toMatchObject({ kind: "ERROR", reason: "TERMS_CHANGED" });
    expect(await move(creator, { action: "accept", version: 3 })).toMatchObject({ kind: "SUCCESS" });
    expect(await move(creator, { action: "accept", version: 3 })).toMatchObject({ kind: "ERROR", reason: "WRONG_STATE" });

    const deal = await viewOf(otherSponsor, dealId);
    expect(deal!.state).toBe("agreed");
    expect(deal!.versions.map((v) => [v.proposedBy, v.price, v.exclusivityDays])).toEqual([["sponsor", 40_000, 0], ["creator", 60_000, 14], ["sponsor", 50_000, 0]]);
    expect(deal!.accepted).toMatchObject({ version: 3, byYou: false });
    expect(deal!.actions).toEqual(["withdraw"]);
    const activity = await database.db.select().from(dealActivity).where(eq(dealActivity.dealId, dealId)).orderBy(asc(dealActivity.seq));
    expect(activity.map((a) => [a.seq, a.action, a.fromState, a.toState, a.termsVersion])).toEqual([
      [1, "offer", null, "proposed", 1],
      [2, "counter", "proposed", "proposed", 2],
      [3, "counter", "proposed", "proposed", 3],
      [4, "accept", "proposed", "agreed", 3],
    ]);
    expect(activity.at(-1)!.network).toBe("198.51.100.4");

    expect(await move(otherSponsor, { action: "withdraw" })).toMatchObject({ kind: "SUCCESS" });
    expect((await viewOf(creator, dealId))!.state).toBe("withdrawn");
    // The deal ended, so a new offer on the same request may begin.
    expect((await apply(otherSponsor, request)).kind).toBe("SUCCESS");
  });

  it("takes a sponsor's offer straight to the creator behind a bio page, one live offer per pair", async () => {
    const direct = (uid: string, ending: string, subject = "Desk lamp launch") =>
      openDirectOffer(database.db, deps(), { uid, bioPageEnding: ending, subject, pitch: "Show our lamp.", terms: terms(), network: "203.0.113.7" });
    const [page] = await database.db.select({ ending: bioPages.customEnding }).from(bioPages).where(eq(bioPages.uid, creator)).limit(1);
    expect(await direct(creator, page!.ending)).toMatchObject({ kind: "ERROR", reason: "OWN_PAGE" });
    expect(await direct(otherSponsor, "no-such-page")).toMatchObject({ kind: "ERROR", code: "not-found" });
    expect(await direct(otherSponsor, page!.ending, " ")).toMatchObject({ kind: "ERROR", fieldErrors: { subject: "Say what the offer is for, like “Spring headphone launch”" } });
    const [first, second] = await Promise.all([direct(otherSponsor, page!.ending), direct(otherSponsor, page!.ending)]);
    const opened = [first, second].find((r) => r.kind === "SUCCESS");
    expect(opened).toBeDefined();
    if (opened?.kind !== "SUCCESS") return;
    expect([first, second].find((r) => r.kind === "ERROR")).toMatchObject({ reason: "ALREADY_OPEN", dealId: opened.dealId });
    const deal = await viewOf(creator, opened.dealId);
    expect(deal).toMatchObject({ title: "Desk lamp launch", origin: "offer", opportunityId: null, bioPageEnding: page!.ending, waitingOnYou: true });
  });

  it("stops an account that opened thirty deals today, before anyone is told", async () => {
    const [otherBrief] = await database.db.select({ id: opportunityPosts.id }).from(opportunityPosts).where(eq(opportunityPosts.posterUid, otherSponsor)).limit(1);
    for (let i = 0; i < DEAL_RATE_LIMITS.opened.limit; i++) await consumeRateLimit(database.db, rateLimitKey("deals:opened", creator), DEAL_RATE_LIMITS.opened);
    const before = await database.db.select().from(notifications).where(eq(notifications.uid, otherSponsor));
    expect(await apply(creator, otherBrief!.id)).toMatchObject({ kind: "ERROR", code: "resource-exhausted", reason: "RATE_LIMITED", message: "You have started 30 deals today. Try again in 24 hours." });
    expect(await database.db.select().from(notifications).where(eq(notifications.uid, otherSponsor))).toHaveLength(before.length);
    await database.db.delete(rateLimits);
  });

  it("keeps a thread per deal: numbered messages, one nudge per unread run, and each side's unread count", async () => {
    const opened = await apply(creator, (await database.db.select({ id: opportunityPosts.id }).from(opportunityPosts).where(eq(opportunityPosts.posterUid, otherSponsor)).limit(1))[0]!.id);
    if (opened.kind !== "SUCCESS") throw new Error(opened.message);
    const { dealId } = opened;
    const nudges = async () => (await database.db.select().from(notifications).where(and(eq(notifications.uid, otherSponsor), eq(notifications.title, "New message")))).length;
    const post = (uid: string, body: string) => postDealMessage(database.db, deps(), { uid, dealId, body });
    const before = await nudges();

    expect(await post(creator, "   ")).toMatchObject({ kind: "ERROR", fieldErrors: { body: "Write a message or attach a file first" } });
    expect(await post(sponsor, "Not my deal")).toMatchObject({ kind: "ERROR", code: "not-found" });
    expect(await Promise.all([post(creator, "Hello!"), post(creator, "Here is my media kit.")])).toEqual([
      expect.objectContaining({ kind: "SUCCESS" }),
      expect.objectContaining({ kind: "SUCCESS" }),
    ]);
    expect(await nudges()).toBe(before + 1);
    const unreadFor = async (uid: string) => (await myDeals(database.db, uid, { waitingOnly: false })).items.find((d) => d.id === dealId)!.unread;
    expect(await unreadFor(otherSponsor)).toBe(2);
    expect(await unreadFor(creator)).toBe(0);

    const read = await threadOf(otherSponsor, dealId);
    expect(read!.messages.map((m) => [m.seq, m.side])).toEqual([[1, "creator"], [2, "creator"]]);
    expect(read!.firstUnread).toBe(1);
    expect(await unreadFor(otherSponsor)).toBe(0);
    expect((await threadOf(otherSponsor, dealId))!.firstUnread).toBeNull();
    expect(await threadOf(sponsor, dealId)).toBeNull();
    // Read, then a new message: a new run, a new nudge.
    await post(creator, "Any news?");
    expect(await nudges()).toBe(before + 2);
  });

  it("lists My deals for either side, most recent first, and those waiting on the person", async () => {
    const all = await myDeals(database.db, creator, { waitingOnly: false });
    expect(all.items.length).toBeGreaterThanOrEqual(3);
    const times = all.items.map((d) => d.updatedAt);
    expect(times).toEqual([...times].sort().reverse());
    const waiting = await myDeals(database.db, creator, { waitingOnly: true });
    expect(waiting.items.every((d) => d.waitingOnYou)).toBe(true);
    expect(waiting.items.map((d) => d.side)).toContain("creator");
    expect((await myDeals(database.db, sponsor, { waitingOnly: true })).items.map((d) => d.otherName)).toEqual(["Maya Makes"]);
  });

  it("pages My deals by keyset to the microsecond: each deal once, in order, however small the page", async () => {
    const [a, b, c] = (await myDeals(database.db, creator, { waitingOnly: false, pageSize: 100 })).items.map((d) => d.id);
    // Three deals moved within one millisecond: a cursor cut to the millisecond would skip two of them.
    const stamp = (id: string, at: string) => database.db.update(deals).set({ updatedAt: sql`${at}::timestamptz` }).where(eq(deals.id, id));
    await Promise.all([stamp(a!, "2098-01-01 00:00:00.000900+00"), stamp(b!, "2098-01-01 00:00:00.000500+00"), stamp(c!, "2098-01-01 00:00:00.000500+00")]);
    const whole = (await myDeals(database.db, creator, { waitingOnly: false, pageSize: 100 })).items.map((d) => d.id);
    expect(whole.slice(0, 3)).toEqual([a, ...[b, c].sort().reverse()]);
    const walked: string[] = [];
    let after: Awaited<ReturnType<typeof myDeals>>["next"] = null;
    do {
      const page = await myDeals(database.db, creator, { waitingOnly: false, pageSize: 1, after });
      walked.push(...page.items.map((d) => d.id));
      after = page.next;
      expect(walked.length).toBeLessThanOrEqual(whole.length);
    } while (after);
    expect(walked).toEqual(whole);
  });
});
