import { describe, expect, it } from "vitest";
import type { Db } from "#server/platform/db/client";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { seedPayee } from "#tests/support/payments";
import { seedFan, seedMembership, seedTier, type SeededMembership } from "#tests/support/office-memberships";
import { testSandbox } from "#tests/support/test-sandbox";
import { accountMemberships, listMembershipsForStaff, readMembershipFilters, type StaffMembershipFilters } from "./memberships";

async function everyPage(db: Db, filters: StaffMembershipFilters, pageSize: number) {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let n = 0; n < 100; n++) {
    const page = await listMembershipsForStaff(db, filters, { cursor, pageSize });
    ids.push(...page.rows.map((r) => r.id));
    cursor = page.nextCursor;
    if (!cursor) return ids;
  }
  throw new Error("the pages never ended");
}

describe("reading the staff list's filters", () => {
  it("keeps a status that is one and ignores any other", () => {
    expect(readMembershipFilters(new URLSearchParams({ status: "past_due" }))).toEqual({ status: "past_due" });
    expect(readMembershipFilters(new URLSearchParams({ status: "gold" }))).toEqual({ status: null });
    expect(readMembershipFilters(new URLSearchParams())).toEqual({ status: null });
  });
});

describe.each(ENGINES)("memberships in the back office on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sandbox = testSandbox(database);
  const db = () => database.db;

  it("lists every membership newest first with its tier, page, member, amount and status, pages by keyset and filters by status", async () => {
    const payee = await seedPayee(db(), sandbox.provider);
    const tier = await seedTier(db(), payee, { name: "Gold" });
    const fan = await seedFan(db());
    const same = new Date("2031-01-01T10:00:00.123456Z");
    const seeded: SeededMembership[] = [];
    for (const [n, status] of (["active", "past_due", "cancelled", "active", "ended"] as const).entries()) {
      seeded.push(await seedMembership(db(), payee, tier, { status, amount: 500 + n, created: n < 2 ? same : new Date(Date.parse("2031-01-02T00:00:00Z") + n * 1000), memberUid: n === 0 ? fan.uid : null }));
    }
    const ours = new Set(seeded.map((s) => s.id));
    const first = await listMembershipsForStaff(db(), { status: null }, { pageSize: 500 });
    expect(first.nextCursor).toBeNull();
    const row = first.rows.find((r) => r.id === seeded[4]!.id)!;
    expect(row).toMatchObject({ status: "ended", amount: 504, currency: "usd", interval: "month", tierName: "Gold", pageName: `Page of ${payee.uid}`, pageEnding: payee.ending, creatorEmail: `${payee.uid}@pay.example` });
    expect(row.memberEmail).toMatch(/@fan\.example$/);
    expect(first.counts.active).toBeGreaterThanOrEqual(2);

    // Every page in turn gives every row once, the two of the same instant kept apart by id.
    const all = (await everyPage(db(), { status: null }, 2)).filter((id) => ours.has(id));
    const sameInstant = [seeded[0]!.id, seeded[1]!.id].sort().reverse();
    expect(all).toEqual([seeded[4]!.id, seeded[3]!.id, seeded[2]!.id, ...sameInstant]);
    // A signed-in member is named by their account's address.
    const [theFan] = (await listMembershipsForStaff(db(), { status: null }, { pageSize: 500 })).rows.filter((r) => r.id === seeded[0]!.id);
    expect(theFan!.memberEmail).toBe(fan.email);

    const pastDue = await listMembershipsForStaff(db(), { status: "past_due" }, { pageSize: 500 });
    expect(pastDue.rows.every((r) => r.status === "past_due")).toBe(true);
    expect(pastDue.rows.map((r) => r.id)).toContain(seeded[1]!.id);
    expect(pastDue.counts).toEqual(first.counts);
  });

  it("shows an account's memberships as creator (counts by status, monthly recurring revenue) and as member", async () => {
    const payee = await seedPayee(db(), sandbox.provider);
    const other = await seedPayee(db(), sandbox.provider);
    const tier = await seedTier(db(), payee);
    const eurTier = await seedTier(db(), payee, { currency: "eur" });
    await seedMembership(db(), payee, tier, { status: "active", amount: 500 });
    await seedMembership(db(), payee, tier, { status: "past_due", amount: 700 });
    // A yearly membership counts a twelfth of its price each month.
    await seedMembership(db(), payee, tier, { status: "active", amount: 6_000, interval: "year" });
    await seedMembership(db(), payee, eurTier, { status: "active", amount: 300, currency: "eur" });
    // Cancelled, ended and never-paid memberships do not renew.
    await seedMembership(db(), payee, tier, { status: "cancelled", amount: 900 });
    await seedMembership(db(), payee, tier, { status: "ended", amount: 900 });
    await seedMembership(db(), payee, tier, { status: "pending", amount: 900 });

    // The creator is a member of another page: once signed in, once as a guest with their own address.
    const otherTier = await seedTier(db(), other, { name: "Friends" });
    const signedIn = await seedMembership(db(), other, otherTier, { memberUid: payee.uid, created: new Date("2031-02-01T00:00:00Z") });
    const asGuest = await seedMembership(db(), other, otherTier, { memberEmail: `${payee.uid.toUpperCase()}@PAY.example`, status: "ended", created: new Date("2031-03-01T00:00:00Z") });
    // Someone else's membership of the same page is not theirs.
    await seedMembership(db(), other, otherTier, { memberEmail: "someone@else.example" });

    const found = await accountMemberships(db(), payee.uid);
    expect(found.asCreator).toEqual({
      counts: { pending: 1, active: 3, past_due: 1, cancelled: 1, ended: 1, expired: 0 },
      mrr: [
        { currency: "eur", amount: 300 },
        { currency: "usd", amount: 500 + 700 + 500 },
      ],
    });
    expect(found.asMember.map((m) => [m.id, m.tierName, m.status])).toEqual([
      [asGuest.id, "Friends", "ended"],
      [signedIn.id, "Friends", "active"],
    ]);
    const otherView = await accountMemberships(db(), other.uid);
    expect(otherView.asCreator.counts).toMatchObject({ active: 2, ended: 1 });
    expect(otherView.asMember).toEqual([]);
  });
});
