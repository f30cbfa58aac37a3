import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { planOf } from "#tests/support/query-plans";
import { notificationDeps } from "#tests/support/payments";
import { deals, opportunityPosts, profiles } from "#server/platform/db/schema";
import { seedDatabase } from "#server/tools/seed";
import { DEMO_ACCOUNTS } from "#server/tools/seed/demo-accounts";
import { moveDeal, type DealMove } from "#server/domains/deals/act";
import { openDeal } from "#server/domains/deals/open-deal";
import { parsedTerms } from "#tests/support/deal-terms";
import { dealRecordForStaff, listDealsForStaff, readDealFilters, type StaffDealFilters } from "./deals";

const { creator, sponsor, sponsor2 } = DEMO_ACCOUNTS;
const ALL: StaffDealFilters = { state: null, search: null };
const at = (minute: number) => new Date(Date.UTC(2026, 10, 20, 9, minute));

const terms = (price: string) => parsedTerms({ price, usageRights: "none", usageDays: "0", deliverableFormat: ["A dedicated review"] });

describe("the deals list's filters from the address", () => {
  it("keeps a known state and a trimmed search, and drops anything else", () => {
    expect(readDealFilters(new URLSearchParams("state=agreed&q=%20maya%20"))).toEqual({ state: "agreed", search: "maya" });
    expect(readDealFilters(new URLSearchParams("state=paid&q=%20%20"))).toEqual({ state: null, search: null });
  });
});

describe.each(ENGINES)("staff reading deals on %s", (engine) => {
  const database = migratedDatabase(engine);
  let briefTitle: string;
  // Each deal's id, named by where it ends up.
  const ids = { proposed: "", declined: "", agreed: "", withdrawn: "" };

  beforeAll(async () => {
    const db = database.db;
    await seedDatabase(db);
    const deps = notificationDeps(db);
    const posts = await db.select({ id: opportunityPosts.id, kind: opportunityPosts.kind, poster: opportunityPosts.posterUid, title: opportunityPosts.title }).from(opportunityPosts);
    const brief = posts.find((p) => p.poster === sponsor.id && p.kind === "brief")!;
    const request = posts.find((p) => p.poster === creator.id && p.kind === "request")!;
    briefTitle = brief.title;
    const open = async (uid: string, opportunityId: string, price: string, minute: number) => {
      const opened = await openDeal(db, deps, { uid, opportunityId, pitch: "A good match.", links: "", bioPageId: "", terms: terms(price), network: `203.0.113.${minute}` }, at(minute));
      if (opened.kind !== "SUCCESS") throw new Error(JSON.stringify(opened));
      return opened.dealId;
    };
    const move = async (uid: string, dealId: string, m: DealMove, minute: number) => {
      const moved = await moveDeal(db, deps, { uid, dealId, move: m, network: `198.51.100.${minute}` }, at(minute));
      if (moved.kind !== "SUCCESS") throw new Error(JSON.stringify(moved));
    };
    await db.update(profiles).set({ paymentsEnabled: true }).where(eq(profiles.uid, creator.id));

    ids.proposed = await open(creator.id, brief.id, "750", 1);
    ids.declined = await open(sponsor2.id, request.id, "400", 2);
    // Two deals moved in the same moment: the list breaks the tie by id.
    await move(creator.id, ids.declined, { action: "decline", message: "Not a fit." }, 3);
    await move(sponsor.id, ids.proposed, { action: "counter", terms: terms("700") }, 3);
    ids.agreed = await open(sponsor.id, request.id, "500", 5);
    await move(creator.id, ids.agreed, { action: "accept", version: 1 }, 6);
    ids.withdrawn = await open(sponsor2.id, request.id, "450", 7);
    await move(sponsor2.id, ids.withdrawn, { action: "withdraw" }, 8);
  });

  it("lists every deal newest activity first, with both parties' emails, the latest price and counts per state", async () => {
    const list = await listDealsForStaff(database.db, ALL);
    const [first, second] = [ids.proposed, ids.declined].sort().reverse();
    expect(list.rows.map((r) => r.id)).toEqual([ids.withdrawn, ids.agreed, first, second]);
    expect(list.counts).toEqual({ proposed: 1, agreed: 1, funded: 0, disputed: 0, completed: 0, cancelled: 0, declined: 1, withdrawn: 1 });
    expect(list.nextCursor).toBeNull();
    const proposed = list.rows.find((r) => r.id === ids.proposed)!;
    expect(proposed).toMatchObject({ title: briefTitle, state: "proposed", creatorEmail: creator.email, sponsorEmail: sponsor.email, price: 70_000, currency: "usd", updatedAt: at(3) });
  });

  it("pages by keyset: each deal once, in order, however small the page, and a broken cursor starts over", async () => {
    const whole = (await listDealsForStaff(database.db, ALL)).rows.map((r) => r.id);
    const walked: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await listDealsForStaff(database.db, ALL, { cursor, pageSize: 1 });
      walked.push(...page.rows.map((r) => r.id));
      cursor = page.nextCursor;
      expect(walked.length).toBeLessThanOrEqual(whole.length);
    } while (cursor);
    expect(walked).toEqual(whole);
    expect((await listDealsForStaff(database.db, ALL, { cursor: "not-a-cursor", pageSize: 2 })).rows.map((r) => r.id)).toEqual(whole.slice(0, 2));
  });

  it("filters by state, and searches titles and either party's email, counting what the search finds", async () => {
    const agreed = await listDealsForStaff(database.db, { state: "agreed", search: null });
    expect(agreed.rows.map((r) => r.id)).toEqual([ids.agreed]);
    // The counts stay those of every state, so staff see where else to look.
    expect(agreed.counts.declined).toBe(1);

    const bySponsor = await listDealsForStaff(database.db, { state: null, search: "PRIYA@demo" });
    expect(bySponsor.rows.map((r) => r.id)).toEqual([ids.withdrawn, ids.declined]);
    expect(bySponsor.counts).toEqual({ proposed: 0, agreed: 0, funded: 0, disputed: 0, completed: 0, cancelled: 0, declined: 1, withdrawn: 1 });
    expect((await listDealsForStaff(database.db, { state: null, search: creator.email })).rows).toHaveLength(4);
    expect((await listDealsForStaff(database.db, { state: null, search: briefTitle.slice(2, 12).toUpperCase() })).rows.map((r) => r.id)).toEqual([ids.proposed]);
    expect((await listDealsForStaff(database.db, { state: "withdrawn", search: briefTitle })).rows).toEqual([]);
    // LIKE's wildcards are searched for as themselves.
    expect((await listDealsForStaff(database.db, { state: null, search: "%" })).rows).toEqual([]);
  });

  it("serves the all-deals list from its (updated_at, id) index", async () => {
    const plan = await planOf(database, sql`select id from deals where (updated_at, id) < (now(), 'x') order by updated_at desc, id desc limit 26`);
    expect(plan).toContain("deals_updated_idx");
  });

  it("reads one deal's whole record: both parties, every terms version and every move with who, states, version and network", async () => {
    const record = await dealRecordForStaff(database.db, ids.proposed);
    expect(record).toMatchObject({ state: "proposed", origin: "application", openedBy: "creator", waitingOn: "creator", latestVersion: 2, accepted: null });
    expect(record!.creator).toEqual({ uid: creator.id, name: creator.name, email: creator.email });
    expect(record!.sponsor).toEqual({ uid: sponsor.id, name: sponsor.name, email: sponsor.email });
    expect(record!.versions.map((v) => [v.version, v.proposedBy, v.price])).toEqual([[1, "creator", 75_000], [2, "sponsor", 70_000]]);
    expect(record!.activity.map((a) => [a.seq, a.action, a.actorEmail, a.actorSide, a.fromState, a.toState, a.termsVersion, a.network, a.at])).toEqual([
      [1, "application", creator.email, "creator", null, "proposed", 1, "203.0.113.1", at(1)],
      [2, "counter", sponsor.email, "sponsor", "proposed", "proposed", 2, "198.51.100.3", at(3)],
    ]);

    const agreed = await dealRecordForStaff(database.db, ids.agreed);
    expect(agreed!.accepted).toEqual({ version: 1, by: creator.id, at: at(6), from: "198.51.100.6" });
    expect(agreed!.activity.map((a) => [a.action, a.fromState, a.toState])).toEqual([["offer", null, "proposed"], ["accept", "proposed", "agreed"]]);
    const declined = await dealRecordForStaff(database.db, ids.declined);
    expect(declined).toMatchObject({ state: "declined", endedBy: creator.id, declineMessage: "Not a fit." });

    expect(await dealRecordForStaff(database.db, "deal_nope")).toBeNull();
  });

  it("still reads a deal whose party's account is gone, the moves they made kept by id", async () => {
    await database.db.update(deals).set({ sponsorUid: null }).where(eq(deals.id, ids.withdrawn));
    const record = await dealRecordForStaff(database.db, ids.withdrawn);
    expect(record!.sponsor).toBeNull();
    expect(record!.activity.map((a) => [a.action, a.actorUid, a.actorSide])).toEqual([["offer", sponsor2.id, null], ["withdraw", sponsor2.id, null]]);
    const row = (await listDealsForStaff(database.db, { state: "withdrawn", search: null })).rows[0]!;
    expect(row).toMatchObject({ id: ids.withdrawn, sponsorEmail: null, creatorEmail: creator.email });
  });
});
