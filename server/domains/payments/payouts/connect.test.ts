import { and, eq, inArray } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { connectedAccounts, notifications, profiles, user } from "#server/platform/db/schema";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { notificationDeps } from "#tests/support/payments";
import { setSandboxAccountState, testSandbox, withOutage } from "#tests/support/test-sandbox";
import type { PaymentProvider } from "#server/providers/payments/port";
import { sandboxAccounts } from "#server/providers/payments/sandbox/schema";
import { checkOnboardingLink, readOnboardingLink } from "#server/providers/payments/sandbox/links";
import { completeOnboardingReturn, getOrCreateConnectedAccount, resumeOnboarding } from "#server/domains/payments/payouts/connect";

describe.each(ENGINES)("connected accounts on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sandbox = testSandbox(database);
  let provider: PaymentProvider;
  let outage: ReturnType<typeof withOutage>["down"];
  let uid: string;
  let n = 0;
  const db = () => database.db;
  const connect = (who = uid) => getOrCreateConnectedAccount(db(), provider, { uid: who, email: `${who}@c.example`, accountType: "individual", origin: "http://app.test" }, notificationDeps(db()));
  const row = async (who = uid) => (await db().select().from(connectedAccounts).where(eq(connectedAccounts.uid, who)))[0];
  const accountsOf = async (...uids: string[]) => db().select().from(sandboxAccounts).where(inArray(sandboxAccounts.uid, uids));
  const onboard = (accountId: string) => sandbox.provider.completeOnboarding(accountId, { legalName: "Creator", country: "US", bankAccount: "000123456789" });
  /** The onboarding link's return address, once the sandbox has checked the link's signature. */
  const returnUrlOf = (url: string) => {
    const parsed = new URL(url);
    const link = readOnboardingLink(parsed.pathname.split("/").at(-1)!, parsed.searchParams);
    expect(checkOnboardingLink(sandbox.provider.linkKey, link)).toBe("valid");
    return link;
  };
  const newUser = async () => {
    n += 1;
    const id = `connect_${engine}_${n}`;
    await db().insert(user).values({ id, name: id, email: `${id}@c.example`, emailVerified: true });
    return id;
  };

  beforeEach(async () => {
    ({ provider, down: outage } = withOutage(sandbox.provider));
    uid = await newUser();
  });

  it("CREATE_NEW: one account however many tabs, and an onboarding link that carries the user's state token", async () => {
    const results = await Promise.all([connect(), connect(), connect()]);
    const stored = (await row())!;
    expect(stored.completed).toBe(false);
    expect(stored.providerAccountId).toMatch(/^acct_/);
    expect(stored.stateToken.length).toBeGreaterThanOrEqual(32);
    expect(await accountsOf(uid)).toHaveLength(1);
    for (const result of results) {
      expect(result.kind === "SUCCESS" && (result.outcome === "CREATE_NEW" || result.outcome === "EXISTING_INCOMPLETE")).toBe(true);
      const link = returnUrlOf((result as { url: string }).url);
      expect(link.accountId).toBe(stored.providerAccountId);
      expect(link.returnUrl).toBe(`http://app.test/app/payments/setup/return?state=${encodeURIComponent(stored.stateToken)}`);
      expect(link.refreshUrl).toBe(`http://app.test/app/payments/setup/refresh?state=${encodeURIComponent(stored.stateToken)}`);
    }
    expect(results.filter((r) => r.kind === "SUCCESS" && r.outcome === "CREATE_NEW").length).toBeGreaterThanOrEqual(1);
  });

  it("EXISTING_INCOMPLETE until the provider says it can take charges, then EXISTING_COMPLETE with payments on and one alert", async () => {
    expect(await connect()).toMatchObject({ kind: "SUCCESS", outcome: "CREATE_NEW" });
    expect(await connect()).toMatchObject({ kind: "SUCCESS", outcome: "EXISTING_INCOMPLETE" });
    await onboard((await row())!.providerAccountId!);
    expect(await connect()).toEqual({ kind: "SUCCESS", outcome: "EXISTING_COMPLETE" });
    expect(await connect()).toEqual({ kind: "SUCCESS", outcome: "EXISTING_COMPLETE" });
    expect((await row())!.completed).toBe(true);
    expect((await db().select().from(profiles).where(eq(profiles.uid, uid)))[0]!.paymentsEnabled).toBe(true);
    expect(await db().select().from(notifications).where(and(eq(notifications.uid, uid), eq(notifications.kind, "payouts-enabled")))).toHaveLength(1);
  });

  it("details submitted is not complete: only charges enabled is", async () => {
    await connect();
    await setSandboxAccountState(db(), (await row())!.providerAccountId!, { detailsSubmitted: true, payoutsEnabled: true });
    expect(await connect()).toMatchObject({ kind: "SUCCESS", outcome: "EXISTING_INCOMPLETE" });
  });

  it("ERROR when the provider cannot be reached", async () => {
    outage.add("createConnectedAccount");
    expect((await connect()).kind).toBe("ERROR");
    outage.clear();
    expect(await connect()).toMatchObject({ kind: "SUCCESS", outcome: "CREATE_NEW" });
    outage.add("readAccount");
    expect((await connect()).kind).toBe("ERROR");
  });

  it("the return from onboarding is bound to the user: their token only, read fresh", async () => {
    await connect();
    const { stateToken, providerAccountId } = (await row())!;
    expect(await completeOnboardingReturn(db(), provider, { uid, stateToken }, notificationDeps(db()))).toEqual({ kind: "SUCCESS", completed: false });
    await onboard(providerAccountId!);
    expect(await completeOnboardingReturn(db(), provider, { uid, stateToken }, notificationDeps(db()))).toEqual({ kind: "SUCCESS", completed: true });

    expect(await completeOnboardingReturn(db(), provider, { uid, stateToken: `${stateToken}x` }, notificationDeps(db()))).toMatchObject({ kind: "ERROR", code: "permission-denied" });
    expect(await completeOnboardingReturn(db(), provider, { uid, stateToken: "" }, notificationDeps(db()))).toMatchObject({ kind: "ERROR", code: "permission-denied" });
    // Someone else opening this user's return link gets nothing, whether or not they have an account.
    const stranger = await newUser();
    expect(await completeOnboardingReturn(db(), provider, { uid: stranger, stateToken }, notificationDeps(db()))).toMatchObject({ kind: "ERROR", code: "permission-denied" });
    await connect(stranger);
    expect(await completeOnboardingReturn(db(), provider, { uid: stranger, stateToken }, notificationDeps(db()))).toMatchObject({ kind: "ERROR", code: "permission-denied" });
    expect((await row(stranger))!.completed).toBe(false);
  });

  it("an expired onboarding link is renewed only for the user's own token, and says so once the account is complete", async () => {
    const resume = (who: string, stateToken: string) => resumeOnboarding(db(), provider, { uid: who, email: `${who}@c.example`, stateToken, origin: "http://app.test" }, notificationDeps(db()));
    expect(await resume(uid, "anything")).toMatchObject({ kind: "ERROR", code: "permission-denied" });
    await connect();
    const { stateToken, providerAccountId } = (await row())!;
    const renewed = await resume(uid, stateToken);
    expect(renewed).toMatchObject({ kind: "SUCCESS", outcome: "EXISTING_INCOMPLETE" });
    expect(returnUrlOf((renewed as { url: string }).url).returnUrl).toContain(encodeURIComponent(stateToken));
    const stranger = await newUser();
    await connect(stranger);
    expect(await resume(stranger, stateToken)).toMatchObject({ kind: "ERROR", code: "permission-denied" });
    expect(await accountsOf(uid, stranger)).toHaveLength(2);
    await onboard(providerAccountId!);
    expect(await resume(uid, stateToken)).toEqual({ kind: "SUCCESS", outcome: "EXISTING_COMPLETE" });
  });
});
