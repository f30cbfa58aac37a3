import { describe, expect, it } from "vitest";
import { accountSuspensions, bioPages, contentReports, user } from "#server/platform/db/schema";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { backOfficeSummary } from "./summary";
import { fundedDeal } from "#tests/support/deals";
import { notificationDeps, seedPayee } from "#tests/support/payments";
import { testSandbox } from "#tests/support/test-sandbox";
import { moveDeal } from "#server/domains/deals/act";
import { decideDispute, settleDispute } from "#server/domains/deals/disputes";

describe.each(ENGINES)("the back office's summary on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sandbox = testSandbox(database);
  const db = () => database.db;

  it("is all zeros and no run on a quiet platform", async () => {
    expect(await backOfficeSummary(db())).toEqual({
      reports: { openItems: 0, oldestOpen: null },
      disputes: { open: 0, nextDeadline: null, flaggedCreators: 0 },
      dealDisputes: { open: 0, oldestOpen: null },
      dealMoneyHeld: [],
      reconciliation: null,
      suspensionsInForce: 0,
      removedItems: 0,
    });
  });

  it("counts reported items (not reports), the oldest open one, suspensions in force and removed pages", async () => {
    await db().insert(user).values({ id: "sum-owner", name: "Owner", email: "owner@summary.example", emailVerified: true, disabled: true });
    await db().insert(bioPages).values([
      { id: "sum-page", uid: "sum-owner", customEnding: "sumpage", name: "Page" },
      { id: "sum-gone", uid: "sum-owner", customEnding: "sumgone", name: "Gone", removedAt: new Date(), removedReason: "Scams" },
    ]);
    const oldest = new Date("2026-11-20T08:00:00Z");
    await db().insert(contentReports).values([
      { targetType: "bio_page", targetId: "sum-page", reason: "Spam", reporterKey: "a", createdAt: oldest },
      { targetType: "bio_page", targetId: "sum-page", reason: "Scams", reporterKey: "b", createdAt: new Date("2026-11-21T08:00:00Z") },
      { targetType: "opportunity", targetId: "sum-post", reason: "Spam", reporterKey: "a", createdAt: new Date("2026-11-22T08:00:00Z") },
      { targetType: "opportunity", targetId: "sum-old", reason: "Spam", reporterKey: "c", status: "dismissed", createdAt: new Date("2026-11-01T08:00:00Z") },
    ]);
    await db().insert(accountSuspensions).values([
      { uid: "sum-owner", suspendedByLabel: "staff@summary.example", reason: "Scams" },
      { uid: "sum-owner", suspendedByLabel: "staff@summary.example", reason: "Earlier", liftedAt: new Date("2026-10-01T00:00:00Z") },
    ]);
    const summary = await backOfficeSummary(db());
    expect(summary.reports).toEqual({ openItems: 2, oldestOpen: oldest });
    expect(summary.suspensionsInForce).toBe(1);
    expect(summary.removedItems).toBe(1);
  });

  it("counts disputed deals and the money held for booked ones, which a staff decision then moves", async () => {
    const payee = await seedPayee(db(), sandbox.provider);
    const held = await fundedDeal(db(), sandbox.provider, payee, 30_000);
    const disputed = await fundedDeal(db(), sandbox.provider, payee, 12_000);
    await moveDeal(db(), notificationDeps(db()), { uid: disputed.sponsorUid, dealId: disputed.dealId, move: { action: "dispute", reason: "Nothing yet" }, network: "203.0.113.5" });
    const before = await backOfficeSummary(db());
    expect(before.dealDisputes).toMatchObject({ open: 1, oldestOpen: expect.any(Date) });
    expect(before.dealMoneyHeld).toEqual([{ currency: "usd", amount: 42_000 }]);

    const staff = { kind: "staff" as const, id: "summary-staff", email: "staff@summary.example" };
    await decideDispute(db(), notificationDeps(db()), staff, { dealId: disputed.dealId, decision: "refund", reason: "Nothing was made." });
    await settleDispute(db(), sandbox.provider, notificationDeps(db()), disputed.dealId);
    const after = await backOfficeSummary(db());
    expect(after.dealDisputes.open).toBe(0);
    expect(after.dealMoneyHeld).toEqual([{ currency: "usd", amount: held.amount }]);
  });
});
