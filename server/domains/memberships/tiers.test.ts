import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { readPublicPage } from "#server/domains/bio/public-page";
import { memberships, membershipTiers } from "#server/platform/db/schema";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { seedPayee, type Payee } from "#tests/support/payments";
import { testSandbox } from "#tests/support/test-sandbox";
import { createTier, listOwnTiers, moveTier, readPageTiers, setTierStatus, updateTier } from "./tiers";
import { parseTierForm, tierInputOf, type TierInput } from "./tier-form";
import { readPublicTiers } from "./public-tiers";

const gold: TierInput = { name: "Gold", monthlyPrice: "5", yearlyPrice: "50", benefits: "Early videos\n\n  Monthly call  \n", memberLimit: "", welcomeMessage: "Welcome aboard!" };

describe("the tier form", () => {
  it("reads prices in dollars, benefits one a line, and a blank limit or yearly price as none", () => {
    expect(parseTierForm(gold)).toEqual({
      kind: "SUCCESS",
      fields: { name: "Gold", monthlyPrice: 500, yearlyPrice: 5000, benefits: ["Early videos", "Monthly call"], memberLimit: null, welcomeMessage: "Welcome aboard!" },
    });
    expect(parseTierForm({ ...gold, yearlyPrice: " ", memberLimit: "25" })).toMatchObject({ fields: { yearlyPrice: null, memberLimit: 25 } });
    expect(tierInputOf({ name: "Gold", monthlyPrice: 450, yearlyPrice: null, benefits: ["a", "b"], memberLimit: 3, welcomeMessage: "" })).toEqual({
      name: "Gold",
      monthlyPrice: "4.50",
      yearlyPrice: "",
      benefits: "a\nb",
      memberLimit: "3",
      welcomeMessage: "",
    });
  });

  it("says every problem at once, beside its field", () => {
    const refused = parseTierForm({ name: " ", monthlyPrice: "2.99", yearlyPrice: "abc", benefits: Array.from({ length: 9 }, (_, i) => `b${i}`).join("\n"), memberLimit: "0", welcomeMessage: "w".repeat(1001) });
    expect(refused).toMatchObject({
      kind: "ERROR",
      code: "invalid-argument",
      fieldErrors: {
        name: "Give the tier a name, like “Gold”",
        monthlyPrice: "The monthly price must be from $3 to $1,000",
        yearlyPrice: "Enter the yearly price in dollars, like 5 or 4.50",
        benefits: "List at most 8 benefits, one a line",
        memberLimit: "Enter a whole number from 1 to 100,000, or leave it blank for no limit",
        welcomeMessage: "Keep the welcome message to 1000 characters or fewer",
      },
    });
    expect(parseTierForm({ ...gold, monthlyPrice: "", benefits: "x".repeat(141), name: "n".repeat(61), yearlyPrice: "1000.01" })).toMatchObject({
      fieldErrors: {
        monthlyPrice: "Enter the monthly price in dollars, like 5",
        benefits: "Keep each benefit to 140 characters or fewer",
        name: "Keep the name to 60 characters or fewer",
        yearlyPrice: "The yearly price must be from $3 to $1,000",
      },
    });
  });
});

describe.each(ENGINES)("membership tiers on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sandbox = testSandbox(database);
  const db = () => database.db;
  let payee: Payee;
  const owner = () => ({ uid: payee.uid });

  beforeAll(async () => {
    payee = await seedPayee(db(), sandbox.provider);
  });

  it("adds tiers for the page's owner only, at the end, and reads them in order with their members", async () => {
    const stranger = { uid: `stranger_${crypto.randomBytes(3).toString("hex")}` };
    expect(await createTier(db(), stranger, payee.pageId, gold)).toMatchObject({ kind: "ERROR", code: "not-found" });
    // A stranger learns nothing from the form's messages either.
    expect(await createTier(db(), stranger, payee.pageId, { ...gold, name: "" })).toMatchObject({ code: "not-found" });
    const first = await createTier(db(), owner(), payee.pageId, gold);
    const second = await createTier(db(), owner(), payee.pageId, { ...gold, name: "Silver", yearlyPrice: "", memberLimit: "2" });
    expect(first).toMatchObject({ kind: "SUCCESS", tier: { name: "Gold", monthlyPrice: 500, yearlyPrice: 5000, status: "active", position: 0, members: 0 } });
    expect(second).toMatchObject({ kind: "SUCCESS", tier: { name: "Silver", yearlyPrice: null, memberLimit: 2, position: 1 } });
    expect(await createTier(db(), owner(), payee.pageId, { ...gold, monthlyPrice: "1" })).toMatchObject({ code: "invalid-argument", fieldErrors: { monthlyPrice: "The monthly price must be from $3 to $1,000" } });
    const listed = await listOwnTiers(db(), owner(), payee.pageId);
    expect(listed).toMatchObject({ kind: "SUCCESS", takesPayments: true, page: { id: payee.pageId, customEnding: payee.ending } });
    expect(listed.kind === "SUCCESS" && listed.tiers.map((tier) => tier.name)).toEqual(["Gold", "Silver"]);
    expect(await listOwnTiers(db(), stranger, payee.pageId)).toMatchObject({ code: "not-found" });
  });

  it("counts running members against the limit, and never pending or ended ones", async () => {
    const [silver] = (await readPageTiers(db(), payee.pageId)).filter((tier) => tier.name === "Silver");
    const member = async (status: "pending" | "active" | "past_due" | "cancelled" | "ended") =>
      db()
        .insert(memberships)
        .values({ id: `mem_${crypto.randomBytes(8).toString("hex")}`, tierId: silver!.id, bioPageId: payee.pageId, creatorUid: payee.uid, provider: "sandbox", destinationAccountId: payee.accountId, amount: 500, status });
    await member("pending");
    await member("ended");
    await member("active");
    expect((await readPublicTiers(db(), payee.pageId)).find((tier) => tier.name === "Silver")).toMatchObject({ spotsLeft: 1 });
    await member("cancelled");
    const tiers = await readPageTiers(db(), payee.pageId);
    expect(tiers.find((tier) => tier.name === "Silver")).toMatchObject({ members: 2 });
    expect((await readPublicTiers(db(), payee.pageId)).map((tier) => [tier.name, tier.spotsLeft])).toEqual([
      ["Gold", null],
      ["Silver", 0],
    ]);
  });

  it("changes, moves, pauses, resumes and retires a tier without touching its members", async () => {
    const [goldTier, silver] = await readPageTiers(db(), payee.pageId);
    const stranger = { uid: "nobody" };
    expect(await updateTier(db(), stranger, goldTier!.id, gold)).toMatchObject({ code: "not-found" });
    expect(await updateTier(db(), owner(), goldTier!.id, { ...gold, monthlyPrice: "7", welcomeMessage: "Hi!" })).toMatchObject({ kind: "SUCCESS", tier: { monthlyPrice: 700, welcomeMessage: "Hi!" } });
    expect(await updateTier(db(), owner(), "tier_unknown", gold)).toMatchObject({ code: "not-found" });
    expect(await moveTier(db(), owner(), silver!.id, "up")).toEqual({ kind: "SUCCESS", moved: true });
    expect(await moveTier(db(), owner(), silver!.id, "up")).toEqual({ kind: "SUCCESS", moved: false });
    expect((await readPageTiers(db(), payee.pageId)).map((tier) => tier.name)).toEqual(["Silver", "Gold"]);

    const before = await db().select().from(memberships).where(eq(memberships.tierId, silver!.id));
    expect(await setTierStatus(db(), owner(), silver!.id, "pause")).toMatchObject({ kind: "SUCCESS", changed: true, tier: { status: "paused" } });
    expect(await setTierStatus(db(), owner(), silver!.id, "pause")).toMatchObject({ kind: "SUCCESS", changed: false });
    expect((await readPublicTiers(db(), payee.pageId)).map((tier) => tier.name)).toEqual(["Gold"]);
    expect(await setTierStatus(db(), owner(), silver!.id, "retire")).toMatchObject({ tier: { status: "retired" } });
    expect(await setTierStatus(db(), stranger, silver!.id, "resume")).toMatchObject({ code: "not-found" });
    expect(await db().select().from(memberships).where(eq(memberships.tierId, silver!.id))).toEqual(before);
    // A retired tier is still read (members name it), last.
    expect((await readPageTiers(db(), payee.pageId)).map((tier) => [tier.name, tier.status])).toEqual([
      ["Silver", "retired"],
      ["Gold", "active"],
    ]);
    expect(await moveTier(db(), owner(), silver!.id, "down")).toEqual({ kind: "SUCCESS", moved: false });
    expect(await setTierStatus(db(), owner(), silver!.id, "resume")).toMatchObject({ tier: { status: "active" } });
  });

  it("offers at most five tiers at once, paused ones included, retired ones not", async () => {
    const other = await seedPayee(db(), sandbox.provider);
    const me = { uid: other.uid };
    const ids: string[] = [];
    for (const name of ["A", "B", "C", "D", "E"]) {
      const made = await createTier(db(), me, other.pageId, { ...gold, name });
      if (made.kind === "SUCCESS") ids.push(made.tier.id);
    }
    await setTierStatus(db(), me, ids[0]!, "pause");
    expect(await createTier(db(), me, other.pageId, { ...gold, name: "F" })).toMatchObject({ code: "resource-exhausted", reason: "TOO_MANY_TIERS" });
    await setTierStatus(db(), me, ids[1]!, "retire");
    expect(await createTier(db(), me, other.pageId, { ...gold, name: "F" })).toMatchObject({ kind: "SUCCESS" });
    // Bringing the retired one back would make six.
    expect(await setTierStatus(db(), me, ids[1]!, "resume")).toMatchObject({ code: "resource-exhausted", reason: "TOO_MANY_TIERS" });
  });

  it("shows no tier on the public page while the owner cannot take payments", async () => {
    const waiting = await seedPayee(db(), sandbox.provider, { complete: false });
    await createTier(db(), { uid: waiting.uid }, waiting.pageId, gold);
    expect((await readPublicPage(db(), waiting.ending))?.tiers).toEqual([]);
    expect((await readPublicPage(db(), payee.ending))?.tiers.map((tier) => tier.name)).toEqual(["Silver", "Gold"]);
    expect(await db().select({ id: membershipTiers.id }).from(membershipTiers).where(eq(membershipTiers.bioPageId, waiting.pageId))).toHaveLength(1);
  });
});
