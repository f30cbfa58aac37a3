import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { memberships } from "#server/platform/db/schema";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { seedMembership, seedPageWithTiers, TEST_MEMBER_KEY } from "#tests/support/member-page-fixtures";
import { signMemberToken } from "./member-link";
import { MEMBER_LINK_NOT_VALID, readMemberPage } from "./member-page";

const NOW = new Date("2030-01-01T00:00:00Z");

describe.each(ENGINES)("the member page on %s", (engine) => {
  const database = migratedDatabase(engine);

  it("shows the membership, its tier and page, and the active tiers it could move to", async () => {
    const { db } = database;
    const page = await seedPageWithTiers(db, [
      { name: "Bronze", monthlyPrice: 300, benefits: ["Thanks in every video"] },
      { name: "Silver", monthlyPrice: 800, yearlyPrice: 8000 },
      { name: "Gold", monthlyPrice: 2000, status: "paused" },
      { name: "Old", monthlyPrice: 1000, status: "retired" },
      { name: "Tiny", monthlyPrice: 900, memberLimit: 1 },
      { name: "Euro", monthlyPrice: 900, currency: "eur" },
    ]);
    const [bronze, silver, , , tiny] = page.tierIds as [string, string, string, string, string];
    const id = await seedMembership(db, { ...page, tierId: bronze }, { amount: 300 });
    // Tiny is full: someone else still belongs (a cancelled member counts until their period ends).
    await seedMembership(db, { ...page, tierId: tiny }, { status: "cancelled", cancelAtPeriodEnd: true });

    const read = await readMemberPage(db, TEST_MEMBER_KEY, signMemberToken(TEST_MEMBER_KEY, id, 1), NOW);
    if (read.kind !== "SUCCESS") throw new Error(read.message);
    const { member } = read;
    expect(member).toMatchObject({
      membershipId: id,
      status: "active",
      mailGoesTo: "f•••@fan.example",
      amount: 300,
      interval: "month",
      pastDue: false,
      manageable: true,
      resumable: false,
      tier: { id: bronze, name: "Bronze", benefits: ["Thanks in every video"] },
      page: { id: page.pageId, name: "Maya Makes" },
      otherInterval: null,
    });
    expect(member.page.look?.name).toBe("Maya Makes");
    expect(member.currentPeriodEnd).toEqual(new Date("2030-01-15T12:00:00Z"));
    // Paused, retired, full and other-currency tiers are not offered.
    expect(member.switchableTiers).toEqual([{ id: silver, name: "Silver", benefits: [], price: 800 }]);
  });

  it("a yearly member is offered monthly, and only tiers with a yearly price", async () => {
    const { db } = database;
    const page = await seedPageWithTiers(db, [
      { name: "Silver", monthlyPrice: 800, yearlyPrice: 8000 },
      { name: "Monthly only", monthlyPrice: 500 },
      { name: "Gold", monthlyPrice: 2000, yearlyPrice: 20000 },
    ]);
    const id = await seedMembership(db, { ...page, tierId: page.tierIds[0]! }, { amount: 8000, interval: "year" });
    const read = await readMemberPage(db, TEST_MEMBER_KEY, signMemberToken(TEST_MEMBER_KEY, id, 1), NOW);
    if (read.kind !== "SUCCESS") throw new Error(read.message);
    expect(read.member.otherInterval).toEqual({ interval: "month", price: 800 });
    expect(read.member.switchableTiers.map((tier) => [tier.name, tier.price])).toEqual([["Gold", 20000]]);
  });

  it("says past due, cancelled (resumable until the period's end) and ended as they are", async () => {
    const { db } = database;
    const page = await seedPageWithTiers(db, [{ name: "Bronze" }]);
    const at = { ...page, tierId: page.tierIds[0]! };
    const read = async (id: string) => {
      const result = await readMemberPage(db, TEST_MEMBER_KEY, signMemberToken(TEST_MEMBER_KEY, id, 1), NOW);
      if (result.kind !== "SUCCESS") throw new Error(result.message);
      return result.member;
    };
    expect(await read(await seedMembership(db, at, { status: "past_due" }))).toMatchObject({ pastDue: true, manageable: true, resumable: false });
    expect(await read(await seedMembership(db, at, { status: "cancelled", cancelAtPeriodEnd: true }))).toMatchObject({ manageable: true, resumable: true });
    const lapsed = await seedMembership(db, at, { status: "cancelled", cancelAtPeriodEnd: true, currentPeriodEnd: new Date("2029-12-01T00:00:00Z") });
    expect(await read(lapsed)).toMatchObject({ resumable: false });
    const ended = await read(await seedMembership(db, at, { status: "ended", endedAt: new Date("2029-12-20T00:00:00Z"), cancelMessage: "Thank you for everything." }));
    expect(ended).toMatchObject({ manageable: false, resumable: false, cancelMessage: "Thank you for everything.", switchableTiers: [] });
    expect(await read(await seedMembership(db, at, { status: "pending", providerSubscriptionId: null }))).toMatchObject({ manageable: false });
  });

  it("refuses a tampered link and a link replaced by newer ones with one 404 and one message", async () => {
    const { db } = database;
    const page = await seedPageWithTiers(db, [{ name: "Bronze" }]);
    const id = await seedMembership(db, { ...page, tierId: page.tierIds[0]! });
    const good = signMemberToken(TEST_MEMBER_KEY, id, 1);
    const tampered = `${good.slice(0, -2)}${good.endsWith("AA") ? "BB" : "AA"}`;
    const otherKey = signMemberToken("another-key", id, 1);
    const unknown = signMemberToken(TEST_MEMBER_KEY, "mem_nobody", 1);
    for (const token of [tampered, otherKey, unknown, "m1.garbage", ""]) {
      expect(await readMemberPage(db, TEST_MEMBER_KEY, token, NOW)).toEqual({ kind: "ERROR", code: "not-found", reason: "LINK_NOT_VALID", message: MEMBER_LINK_NOT_VALID });
    }
    await db.update(memberships).set({ linkVersion: 2 }).where(eq(memberships.id, id));
    expect(await readMemberPage(db, TEST_MEMBER_KEY, good, NOW)).toMatchObject({ kind: "ERROR", code: "not-found", reason: "LINK_NOT_VALID" });
    expect((await readMemberPage(db, TEST_MEMBER_KEY, signMemberToken(TEST_MEMBER_KEY, id, 2), NOW)).kind).toBe("SUCCESS");
  });
});
