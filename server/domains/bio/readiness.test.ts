import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { bioPages, bioPageViews, connectedAccounts, profiles, user } from "#server/platform/db/schema";
import { DEFAULT_THEME } from "#isomorphic/bio-theme";
import { judgeReadiness, judgeSetup, ownPagesWithReadiness, recordLinkCopied } from "./readiness";

describe("the rule", () => {
  it("takes money only with payouts complete, tips on and the owner active, and names the first thing to fix", () => {
    const base = { pageId: "p", payoutsConnected: true, tipsOn: true, ownerActive: true };
    expect(judgeReadiness(base)).toMatchObject({ canTakeMoney: true, nextStep: null });
    expect(judgeReadiness({ ...base, payoutsConnected: false, tipsOn: false })).toMatchObject({ canTakeMoney: false, nextStep: "payouts" });
    expect(judgeReadiness({ ...base, tipsOn: false })).toMatchObject({ canTakeMoney: false, nextStep: "tips" });
    expect(judgeReadiness({ ...base, ownerActive: false })).toMatchObject({ canTakeMoney: false, nextStep: "owner-disabled" });
  });
});

describe("the setup checklist", () => {
  it("is complete only when all six steps are done, and counts the ones that are", () => {
    const none = { hasPhoto: false, themeChosen: false, payoutsConnected: false, tipsOn: false, linkCopied: false, views: 0 };
    expect(judgeSetup(none)).toMatchObject({ doneCount: 0, complete: false });
    expect(judgeSetup({ ...none, tipsOn: true, linkCopied: true })).toMatchObject({ doneCount: 2, complete: false, done: { tips: true, copy: true, share: false } });
    // Copying the link is not sharing it: the first visitor is.
    const all = { hasPhoto: true, themeChosen: true, payoutsConnected: true, tipsOn: true, linkCopied: true, views: 1 };
    expect(judgeSetup(all)).toMatchObject({ doneCount: 6, complete: true });
    expect(judgeSetup({ ...all, views: 0 })).toMatchObject({ doneCount: 5, complete: false, done: { share: false } });
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

  it("reads each page's setup steps in the same statement: photo, theme, copy and first visitor", async () => {
    const setupOf = async (id: string) => (await ownPagesWithReadiness(database.db, owner)).find((p) => p.id === id)!.setup;
    expect((await setupOf("readya")).done).toMatchObject({ photo: false, theme: false, copy: false, share: false });
    await database.db.insert(profiles).values({ uid: owner, name: "Owner" }).onConflictDoNothing();
    await database.db.update(bioPages).set({ theme: DEFAULT_THEME }).where(eq(bioPages.id, "readya"));
    await database.db.insert(bioPageViews).values({ pageId: "readya", uid: owner, count: 3 }).onConflictDoUpdate({ target: bioPageViews.pageId, set: { count: 3 } });
    expect((await setupOf("readya")).done).toMatchObject({ theme: true, share: true, copy: false });
    expect((await setupOf("readyb")).done).toMatchObject({ theme: false, share: false });
  });

  it("records a copy of the owner's own page only, and keeps the first", async () => {
    expect(await recordLinkCopied(database.db, other, "readya")).toBe(false);
    expect(await recordLinkCopied(database.db, owner, "readya", new Date("2026-01-01T00:00:00Z"))).toBe(true);
    expect(await recordLinkCopied(database.db, owner, "readya", new Date("2026-02-01T00:00:00Z"))).toBe(true);
    const [row] = await database.db.select({ at: bioPages.linkCopiedAt }).from(bioPages).where(eq(bioPages.id, "readya"));
    expect(row!.at!.toISOString()).toBe("2026-01-01T00:00:00.000Z");
    const pages = await ownPagesWithReadiness(database.db, owner);
    expect(pages.find((p) => p.id === "readya")!.setup.done.copy).toBe(true);
    expect(pages.find((p) => p.id === "readyb")!.setup.done.copy).toBe(false);
  });
});
