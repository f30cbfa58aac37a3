import { beforeAll, describe, expect, it } from "vitest";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { bioPages, membershipTiers, memberships, user } from "#server/platform/db/schema";
import { readCreatorHome } from "#server/features/creator-home/creator-home";
import { creatorHomeView } from "#app/routes/app/creator-home.server";

const NOW = new Date("2026-03-15T12:00:00Z");

describe.each(ENGINES)("the members card of the creator's home on %s", (engine) => {
  const database = migratedDatabase(engine);

  beforeAll(async () => {
    const db = database.db;
    await db.insert(user).values([
      { id: "ch-members", name: "With members", email: "ch-members@ch.example", emailVerified: true },
      { id: "ch-none", name: "No tiers", email: "ch-none@ch.example", emailVerified: true },
    ]);
    await db.insert(bioPages).values([
      { id: "ch_page", uid: "ch-members", customEnding: "ch_page", name: "Members page" },
      { id: "ch_plain", uid: "ch-none", customEnding: "ch_plain", name: "Plain page" },
    ]);
    await db.insert(membershipTiers).values({ id: "ch_tier", bioPageId: "ch_page", name: "Gold", monthlyPrice: 500 });
    const base = { tierId: "ch_tier", bioPageId: "ch_page", creatorUid: "ch-members", provider: "sandbox", destinationAccountId: "acct_ch" };
    await db.insert(memberships).values([
      { ...base, id: "ch_m1", status: "active", amount: 500, startedAt: new Date("2026-01-02T00:00:00Z") },
      { ...base, id: "ch_m2", status: "active", interval: "year", amount: 5000, startedAt: new Date("2026-03-03T00:00:00Z") },
      { ...base, id: "ch_m3", status: "ended", amount: 500, startedAt: new Date("2026-01-02T00:00:00Z"), endedAt: new Date("2026-02-02T00:00:00Z") },
    ]);
  });

  it("shows members now, their monthly recurring revenue and who joined this month", async () => {
    const { home } = await readCreatorHome(database.db, "ch-members", NOW);
    expect(home?.members).toMatchObject({ running: 2, newThisMonth: 1, currencies: [{ currency: "usd", running: 2, mrr: 917 }] });
    const view = await creatorHomeView(home!, "http://bio.test");
    expect(view.members).toEqual({ running: 2, newThisMonth: 1, lostThisMonth: 0, mrr: { amount: "$9.17", currency: "USD" }, otherMrr: [] });
  });

  it("shows no members card to a creator who never offered a tier", async () => {
    const { home } = await readCreatorHome(database.db, "ch-none", NOW);
    expect(home?.members).toBeNull();
  });
});
