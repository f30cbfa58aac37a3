import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { bioPages, connectedAccounts, user } from "#server/platform/db/schema";
import { judgeReadiness, ownPagesWithReadiness } from "./readiness";

describe("the rule", () => {
  it("takes money only with payouts complete, tips on and the owner active, and names the first thing to fix", () => {
    const base = { pageId: "p", payoutsConnected: true, tipsOn: true, ownerActive: true };
    expect(judgeReadiness(base)).toMatchObject({ canTakeMoney: true, nextStep: null });
    expect(judgeReadiness({ ...base, payoutsConnected: false, tipsOn: false })).toMatchObject({ canTakeMoney: false, nextStep: "payouts" });
    expect(judgeReadiness({ ...base, tipsOn: false })).toMatchObject({ canTakeMoney: false, nextStep: "tips" });
    expect(judgeReadiness({ ...base, ownerActive: false })).toMatchObject({ canTakeMoney: false, nextStep: "owner-disabled" });
  });
});

describe.each(ENGINES)("readiness of the owner's pages on %s", (engine) => {
  const database = migratedDatabase(engine);
  const owner = "ready-owner";
  const other = "ready-other";

  beforeAll(async () => {
    await database.db.insert(user).values([
      { id: owner, name: "Owner", email: "ready-owner@ready.example", emailVerified: true },
      { id: other, name: "Other", email: "ready-other@ready.example", emailVerified: true },
    ]);
    await database.db.insert(bioPages).values([
      { id: "readya", uid: owner, customEnding: "ready_a", name: "A" },
      { id: "readyb", uid: owner, customEnding: "ready_b", name: "B", acceptTips: false },
      { id: "readyc", uid: other, customEnding: "ready_c", name: "C" },
    ]);
  });

  it("needs payouts first while there is no payout account, and only lists the owner's pages", async () => {
    const pages = (await ownPagesWithReadiness(database.db, owner)).map((p) => p.readiness);
    expect(pages.map((p) => [p.pageId, p.nextStep])).toEqual([
      ["readya", "payouts"],
      ["readyb", "payouts"],
    ]);
  });

  it("an incomplete account is not enough; a complete one makes a page with tips on take money", async () => {
    await database.db.insert(connectedAccounts).values({ uid: owner, stateToken: "ready-state", providerAccountId: "acct_ready", completed: false });
    expect((await ownPagesWithReadiness(database.db, owner)).map((p) => p.readiness).every((p) => p.nextStep === "payouts")).toBe(true);
    await database.db.update(connectedAccounts).set({ completed: true }).where(eq(connectedAccounts.uid, owner));
    const pages = (await ownPagesWithReadiness(database.db, owner)).map((p) => p.readiness);
    expect(pages.find((p) => p.pageId === "readya")).toMatchObject({ canTakeMoney: true, nextStep: null });
    expect(pages.find((p) => p.pageId === "readyb")).toMatchObject({ canTakeMoney: false, nextStep: "tips" });
  });

  it("a disabled owner's pages take no money", async () => {
    await database.db.update(user).set({ disabled: true }).where(eq(user.id, owner));
    const pages = (await ownPagesWithReadiness(database.db, owner)).map((p) => p.readiness);
    expect(pages.every((p) => !p.canTakeMoney && p.nextStep === "owner-disabled")).toBe(true);
    await database.db.update(user).set({ disabled: false }).where(eq(user.id, owner));
  });
});
