import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { readPublicPage } from "#server/domains/bio/public-page";
import { ownPagesWithReadiness } from "#server/domains/bio/readiness";
import { connectedAccounts, profiles } from "#server/platform/db/schema";
import { sandboxDemoPayoutAccount } from "#server/providers/payments/sandbox/demo-account";
import { sandboxAccounts } from "#server/providers/payments/sandbox/schema";
import { DEMO_ACCOUNTS } from "./demo-accounts";
import { seedDatabase } from "./index";

describe.each(ENGINES)("the demo creator's page on %s", (engine) => {
  const database = migratedDatabase(engine);
  const maya = DEMO_ACCOUNTS.creator.id;

  it("takes tips out of the box on the sandbox: her account is complete there and here, tips are on", async () => {
    await seedDatabase(database.db, { payoutAccount: sandboxDemoPayoutAccount });
    const [row] = await database.db.select().from(connectedAccounts).where(eq(connectedAccounts.uid, maya));
    expect(row).toMatchObject({ completed: true });
    const [atSandbox] = await database.db.select().from(sandboxAccounts).where(eq(sandboxAccounts.id, row!.providerAccountId!));
    expect(atSandbox).toMatchObject({ chargesEnabled: true, payoutsEnabled: true, idempotencyKey: `account_${maya}` });
    const [profile] = await database.db.select({ enabled: profiles.paymentsEnabled }).from(profiles).where(eq(profiles.uid, maya));
    expect(profile?.enabled).toBe(true);
    expect((await ownPagesWithReadiness(database.db, maya)).map((p) => p.readiness).every((page) => page.canTakeMoney)).toBe(true);
    expect((await readPublicPage(database.db, "mayamakes"))?.takesPayments).toBe(true);
    // Seeding again changes nothing (the demo data goes in once).
    expect((await seedDatabase(database.db, { payoutAccount: sandboxDemoPayoutAccount })).demoAdded).toBe(false);
  });
});

describe("without a provider that can make one (Stripe)", () => {
  const database = migratedDatabase("pglite");
  it("the demo creator has no payout account and her page says it needs payouts", async () => {
    await seedDatabase(database.db);
    expect(await database.db.select().from(connectedAccounts)).toEqual([]);
    expect((await ownPagesWithReadiness(database.db, DEMO_ACCOUNTS.creator.id)).map((p) => p.readiness).map((p) => p.nextStep)).toContain("payouts");
  });
});
