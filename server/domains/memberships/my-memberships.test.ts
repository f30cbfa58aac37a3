import { describe, expect, it } from "vitest";
import { user } from "#server/platform/db/schema";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { seedMembership, seedPageWithTiers, TEST_MEMBER_KEY } from "#tests/support/member-page-fixtures";
import { readMemberToken } from "./member-link";
import { listMyMemberships } from "./my-memberships";

describe.each(ENGINES)("a signed-in fan's memberships on %s", (engine) => {
  const database = migratedDatabase(engine);

  it("lists those joined signed in and those joined as a guest with the verified address, never checkouts left unpaid or anyone else's", async () => {
    const { db } = database;
    const fanUid = `fan_${Date.now()}_${engine}`;
    const email = `${fanUid}@fan.example`;
    await db.insert(user).values({ id: fanUid, name: "Fan", email, emailVerified: true });
    const page = await seedPageWithTiers(db, [
      { name: "Bronze", monthlyPrice: 300 },
      { name: "Silver", monthlyPrice: 800, yearlyPrice: 8000 },
    ]);
    const [bronze, silver] = page.tierIds as [string, string];
    const signedIn = await seedMembership(db, { ...page, tierId: bronze }, { memberUid: fanUid, memberEmail: "other@fan.example", amount: 300 });
    const asGuest = await seedMembership(db, { ...page, tierId: silver }, { memberEmail: email.toUpperCase(), amount: 8000, interval: "year", status: "past_due", linkVersion: 3 });
    const ended = await seedMembership(db, { ...page, tierId: bronze }, { memberEmail: email, status: "ended", endedAt: new Date("2029-01-01T00:00:00Z") });
    await seedMembership(db, { ...page, tierId: bronze }, { memberEmail: email, status: "pending", providerSubscriptionId: null });
    await seedMembership(db, { ...page, tierId: bronze }, { memberEmail: email, status: "expired", providerSubscriptionId: null });
    await seedMembership(db, { ...page, tierId: bronze }, { memberEmail: "someone.else@fan.example" });

    const listed = await listMyMemberships(db, TEST_MEMBER_KEY, { uid: fanUid, verifiedEmail: email });
    // A failed renewal first (it needs the fan), then what runs, then what ended.
    expect(listed.memberships.map((row) => row.id)).toEqual([asGuest, signedIn, ended]);
    expect(listed.memberships[0]).toMatchObject({ tierName: "Silver", pageName: "Maya Makes", status: "past_due", amount: 8000, interval: "year", currency: "usd" });
    expect(listed.memberships[0]!.currentPeriodEnd).toEqual(new Date("2030-01-15T12:00:00Z"));
    // Each "Manage" is the member link of the current version, as the mails carry it.
    const managed = listed.memberships.map((row) => readMemberToken(TEST_MEMBER_KEY, row.managePath.replace("/membership/", "")));
    expect(managed).toEqual([
      { membershipId: asGuest, linkVersion: 3 },
      { membershipId: signedIn, linkVersion: 1 },
      { membershipId: ended, linkVersion: 1 },
    ]);

    expect((await listMyMemberships(db, TEST_MEMBER_KEY, { uid: "nobody", verifiedEmail: "nobody@fan.example" })).memberships).toEqual([]);
  });
});
