import { parse } from "csv-parse/sync";
import { beforeAll, describe, expect, it } from "vitest";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { bioPages, membershipTiers, memberships, refundRequests, sponsorSessions, user } from "#server/platform/db/schema";
import { memberFigures, membersByMonth, readCreatorMember, readCreatorMembers } from "#server/domains/memberships/creator-view";
import { MEMBERS_CSV_COLUMNS, membersCsv, monthlyAmount } from "#server/domains/memberships/members-csv";
import { parseMemberFilter } from "#isomorphic/members";

const NOW = new Date("2026-03-15T12:00:00Z");
const ALL = { pageId: null, tierId: null, state: null, page: 0 } as const;

describe("a yearly membership's monthly amount", () => {
  it("is a twelfth rounded half up to the minor unit", () => {
    expect(monthlyAmount({ amount: 5000, interval: "year" })).toBe(417);
    expect(monthlyAmount({ amount: 1000, interval: "year" })).toBe(83);
    expect(monthlyAmount({ amount: 18, interval: "year" })).toBe(2);
    expect(monthlyAmount({ amount: 17, interval: "year" })).toBe(1);
    expect(monthlyAmount({ amount: 700, interval: "month" })).toBe(700);
  });

  it("reads the list's filters, and nothing else", () => {
    expect(parseMemberFilter(new URLSearchParams("tier=t_1&state=past_due&page=2&bioPage=p1"))).toEqual({ pageId: "p1", tierId: "t_1", state: "past_due", page: 2 });
    expect(parseMemberFilter(new URLSearchParams("tier=<x>&state=gone&page=-1"))).toEqual({ pageId: null, tierId: null, state: null, page: 0 });
  });
});

describe.each(ENGINES)("the creator's members on %s", (engine) => {
  const database = migratedDatabase(engine);
  const owner = "cv-owner";
  const other = "cv-other";

  type Row = typeof memberships.$inferInsert;
  const membership = (id: string, values: Partial<Row> & Pick<Row, "status" | "amount">): Row => ({
    id,
    tierId: "cv_bronze",
    bioPageId: "cv_page1",
    creatorUid: owner,
    memberEmail: `${id}@fan.example`,
    memberName: `Fan ${id}`,
    provider: "sandbox",
    providerSubscriptionId: `sub_${id}`,
    destinationAccountId: "acct_cv",
    interval: "month",
    currency: "usd",
    ...values,
  });

  beforeAll(async () => {
    const db = database.db;
    await db.insert(user).values([
      { id: owner, name: "Owner", email: "cv-owner@cv.example", emailVerified: true },
      { id: other, name: "Other", email: "cv-other@cv.example", emailVerified: true },
    ]);
    await db.insert(bioPages).values([
      { id: "cv_page1", uid: owner, customEnding: "cv_page1", name: "A page" },
      { id: "cv_page2", uid: owner, customEnding: "cv_page2", name: "B page" },
      { id: "cv_otherpage", uid: other, customEnding: "cv_other", name: "Other page" },
    ]);
    await db.insert(membershipTiers).values([
      { id: "cv_bronze", bioPageId: "cv_page1", name: "Bronze", monthlyPrice: 300, position: 0 },
      { id: "cv_gold", bioPageId: "cv_page1", name: "Gold", monthlyPrice: 700, yearlyPrice: 5000, position: 1 },
      { id: "cv_euro", bioPageId: "cv_page2", name: "Euro", monthlyPrice: 1000, currency: "eur" },
      { id: "cv_theirs", bioPageId: "cv_otherpage", name: "Theirs", monthlyPrice: 900 },
    ]);
    const d = (iso: string) => new Date(iso);
    await db.insert(memberships).values([
      membership("m1", { status: "active", amount: 500, startedAt: d("2025-12-10T00:00:00Z"), currentPeriodEnd: d("2026-04-10T00:00:00Z") }),
      membership("m2", { tierId: "cv_gold", status: "active", interval: "year", amount: 5000, startedAt: d("2026-03-02T00:00:00Z"), currentPeriodEnd: d("2027-03-02T00:00:00Z") }),
      membership("m3", { tierId: "cv_gold", status: "active", interval: "year", amount: 1000, startedAt: d("2026-01-05T00:00:00Z"), currentPeriodEnd: d("2027-01-05T00:00:00Z") }),
      membership("m4", { tierId: "cv_gold", status: "past_due", amount: 700, startedAt: d("2026-02-01T00:00:00Z"), currentPeriodEnd: d("2026-03-01T00:00:00Z") }),
      // Cancelled, with paid time left: still a member, and still counted in the revenue until then.
      membership("m5", { status: "cancelled", cancelAtPeriodEnd: true, amount: 300, startedAt: d("2025-11-20T00:00:00Z"), currentPeriodEnd: d("2026-03-20T00:00:00Z") }),
      // Cancelled, its period over before the provider's last word: ended on the 10th.
      membership("m6", { status: "cancelled", cancelAtPeriodEnd: true, amount: 900, startedAt: d("2025-10-01T00:00:00Z"), currentPeriodEnd: d("2026-03-10T00:00:00Z") }),
      membership("m7", { status: "ended", amount: 400, startedAt: d("2025-09-01T00:00:00Z"), endedAt: d("2026-03-05T00:00:00Z"), cancelMessage: "=Thanks, and goodbye" }),
      membership("m8", { tierId: "cv_gold", status: "ended", interval: "year", amount: 1200, startedAt: d("2025-05-01T00:00:00Z"), endedAt: d("2026-02-10T00:00:00Z") }),
      membership("m9", { status: "pending", amount: 800 }),
      membership("m10", { status: "expired", amount: 800 }),
      // 18 a year is 1.5 a month: rounded half up to 2.
      membership("m11", { tierId: "cv_gold", status: "active", interval: "year", amount: 18, startedAt: d("2026-03-10T00:00:00Z"), currentPeriodEnd: d("2027-03-10T00:00:00Z"), memberName: "Quiet", private: true }),
      // Active but set to end at the period's end: cancelled, a member until the 25th.
      membership("m12", { status: "active", cancelAtPeriodEnd: true, amount: 250, startedAt: d("2026-01-20T00:00:00Z"), currentPeriodEnd: d("2026-03-25T00:00:00Z") }),
      membership("m13", { tierId: "cv_euro", bioPageId: "cv_page2", status: "active", currency: "eur", amount: 1000, startedAt: d("2026-03-01T09:00:00Z"), currentPeriodEnd: d("2026-04-01T09:00:00Z") }),
      membership("m14", { tierId: "cv_theirs", bioPageId: "cv_otherpage", creatorUid: other, status: "active", amount: 9999, startedAt: d("2026-03-03T00:00:00Z") }),
    ]);
    const period = (id: string, membershipId: string, at: string, status: "completed" | "refunded", posterUid = owner) => ({
      id,
      kind: "membership" as const,
      provider: "sandbox",
      paymentIntentId: `pi_${id}`,
      posterUid,
      bioPageId: "cv_page1",
      membershipId,
      destinationAccountId: "acct_cv",
      amount: 500,
      message: "",
      status,
      created: new Date(at),
    });
    await db.insert(sponsorSessions).values([
      period("ss_cv1", "m1", "2025-12-10T00:00:00Z", "completed"),
      period("ss_cv2", "m1", "2026-01-10T00:00:00Z", "refunded"),
      period("ss_cv3", "m1", "2026-02-10T00:00:00Z", "completed"),
      period("ss_cv4", "m1", "2026-03-10T00:00:00Z", "completed"),
      // A tip from the same fan is not a period of the membership.
      { ...period("ss_cv5", "m1", "2026-03-11T00:00:00Z", "completed"), kind: "tip" as const, membershipId: null },
    ]);
    await db.insert(refundRequests).values({ sessionId: "ss_cv4", status: "pending" });
  });

  it("counts revenue from running memberships only, a yearly one at a twelfth, exactly, per currency", async () => {
    const figures = await memberFigures(database.db, owner, null, NOW);
    // 500 + 417 + 83 + 700 (past due) + 300 (cancelled, time left) + 2 + 250 (ends on the 25th).
    expect(figures.currencies).toEqual([
      { currency: "usd", running: 7, mrr: 2252 },
      { currency: "eur", running: 1, mrr: 1000 },
    ]);
    expect(figures.running).toBe(8);
    // m2, m11 and m13 joined in March; m6 (its period ran out on the 10th) and m7 left in it.
    expect(figures.newThisMonth).toBe(3);
    expect(figures.lostThisMonth).toBe(2);
  });

  it("keeps to one page when asked, and never counts another creator's members", async () => {
    expect(await memberFigures(database.db, owner, "cv_page2", NOW)).toEqual({ running: 1, newThisMonth: 1, lostThisMonth: 0, currencies: [{ currency: "eur", running: 1, mrr: 1000 }] });
    expect(await memberFigures(database.db, other, null, NOW)).toMatchObject({ running: 1, currencies: [{ currency: "usd", mrr: 9999 }] });
    expect((await memberFigures(database.db, "cv-nobody", null, NOW)).running).toBe(0);
  });

  it("charts twelve UTC months of members at each month's end, and who joined and left", async () => {
    const months = await membersByMonth(database.db, owner, null, NOW);
    expect(months.map((m) => m.month)).toEqual(["2025-04", "2025-05", "2025-06", "2025-07", "2025-08", "2025-09", "2025-10", "2025-11", "2025-12", "2026-01", "2026-02", "2026-03"]);
    expect(months[0]).toEqual({ month: "2025-04", members: 0, joined: 0, lost: 0 });
    expect(months[1]).toEqual({ month: "2025-05", members: 1, joined: 1, lost: 0 });
    expect(months.at(-2)).toEqual({ month: "2026-02", members: 7, joined: 1, lost: 1 });
    expect(months.at(-1)).toEqual({ month: "2026-03", members: 8, joined: 3, lost: 2 });
    // Each month's end is the one before it, plus who joined, less who left.
    for (let i = 1; i < months.length; i++) expect(months[i]!.members).toBe(months[i - 1]!.members + months[i]!.joined - months[i]!.lost);
  });

  it("lists members by tier and state, with each one's paid periods, and filters by tier and state", async () => {
    const read = await readCreatorMembers(database.db, owner, ALL, NOW);
    if (read.kind !== "SUCCESS") throw new Error(read.message);
    expect(read.members.map((m) => m.id)).toEqual(["m1", "m12", "m5", "m6", "m7", "m11", "m2", "m3", "m4", "m8", "m13"]);
    expect(read.tiers.map((t) => [t.id, t.counts])).toEqual([
      ["cv_bronze", { active: 1, past_due: 0, cancelled: 2, ended: 2 }],
      ["cv_gold", { active: 3, past_due: 1, cancelled: 0, ended: 1 }],
      ["cv_euro", { active: 1, past_due: 0, cancelled: 0, ended: 0 }],
    ]);
    const byId = new Map(read.members.map((m) => [m.id, m]));
    expect(byId.get("m1")).toMatchObject({ state: "active", renewsAt: new Date("2026-04-10T00:00:00Z"), endsAt: null, tierName: "Bronze", pageName: "A page", name: "Fan m1" });
    expect(byId.get("m1")!.periods.map((p) => [p.sessionId, p.status, p.refundPending])).toEqual([
      ["ss_cv4", "completed", true],
      ["ss_cv3", "completed", false],
      ["ss_cv2", "refunded", false],
      ["ss_cv1", "completed", false],
    ]);
    expect(byId.get("m5")).toMatchObject({ state: "cancelled", renewsAt: null, endsAt: new Date("2026-03-20T00:00:00Z") });
    expect(byId.get("m6")).toMatchObject({ state: "ended", endsAt: new Date("2026-03-10T00:00:00Z") });
    expect(byId.get("m7")).toMatchObject({ state: "ended", endsAt: new Date("2026-03-05T00:00:00Z"), cancelMessage: "=Thanks, and goodbye" });
    expect(byId.get("m11")).toMatchObject({ name: "Quiet", private: true, joined: new Date("2026-03-10T00:00:00Z") });
    expect(read.months.at(-1)!.members).toBe(8);

    const cancelled = await readCreatorMembers(database.db, owner, { ...ALL, state: "cancelled" }, NOW);
    expect(cancelled.kind === "SUCCESS" && cancelled.members.map((m) => m.id)).toEqual(["m12", "m5"]);
    const gold = await readCreatorMembers(database.db, owner, { ...ALL, tierId: "cv_gold", state: "active" }, NOW);
    expect(gold.kind === "SUCCESS" && gold.members.map((m) => m.id)).toEqual(["m11", "m2", "m3"]);
    const page2 = await readCreatorMembers(database.db, owner, { ...ALL, pageId: "cv_page2" }, NOW);
    expect(page2.kind === "SUCCESS" && [page2.members.map((m) => m.id), page2.tiers.map((t) => t.id), page2.figures.running]).toEqual([["m13"], ["cv_euro"], 1]);
  });

  it("answers not found for another creator's page, tier or member", async () => {
    expect((await readCreatorMembers(database.db, owner, { ...ALL, pageId: "cv_otherpage" }, NOW)).kind).toBe("ERROR");
    expect((await readCreatorMembers(database.db, owner, { ...ALL, tierId: "cv_theirs" }, NOW)).kind).toBe("ERROR");
    expect(await readCreatorMember(database.db, owner, "m14", NOW)).toMatchObject({ kind: "ERROR", code: "not-found" });
    expect(await readCreatorMember(database.db, owner, "m9", NOW)).toMatchObject({ kind: "ERROR", code: "not-found" });
    expect(await readCreatorMember(database.db, owner, "m1", NOW)).toMatchObject({ kind: "SUCCESS", member: { id: "m1" } });
  });

  it("exports the filtered members as CSV with exact amounts and what others typed neutralised", async () => {
    const file = await membersCsv(database.db, owner, { pageId: null, tierId: "cv_bronze", state: null }, NOW);
    if (file.kind !== "SUCCESS") throw new Error(file.message);
    expect(file.filename).toBe("members-2026-03-15.csv");
    expect(file.csv.startsWith("\uFEFF")).toBe(true);
    const rows = parse(file.csv.slice(1), { columns: true }) as Record<(typeof MEMBERS_CSV_COLUMNS)[number], string>[];
    expect(rows.map((r) => r.membership_id)).toEqual(["m1", "m12", "m5", "m6", "m7"]);
    expect(rows[0]).toMatchObject({ page: "A page", tier: "Bronze", name: "Fan m1", state: "active", amount: "5.00", monthly_amount: "5.00", currency: "USD", paid_periods: "4", renews_at: "2026-04-10T00:00:00.000Z" });
    expect(rows[4]).toMatchObject({ state: "ended", cancel_message: "'=Thanks, and goodbye", ends_at: "2026-03-05T00:00:00.000Z" });
    const yearly = await membersCsv(database.db, owner, { pageId: null, tierId: "cv_gold", state: "active" }, NOW);
    const yearlyRows = yearly.kind === "SUCCESS" ? (parse(yearly.csv.slice(1), { columns: true }) as Record<string, string>[]) : [];
    expect(yearlyRows.map((r) => [r.amount, r.monthly_amount, r.private])).toEqual([
      ["0.18", "0.02", "yes"],
      ["50.00", "4.17", "no"],
      ["10.00", "0.83", "no"],
    ]);
  });
});
