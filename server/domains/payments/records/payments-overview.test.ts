import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { connectedAccounts, profiles, sponsorSessions, user } from "#server/platform/db/schema";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { testSandbox } from "#tests/support/test-sandbox";
import { seedPayee, seedSession, type Payee } from "#tests/support/payments";
import { recordPayment, recordRefund } from "#server/domains/payments/ledger/ledger";
import { payoutAccountOf, paymentsMadeBy, paymentsOverview, payoutsDashboardLink } from "#server/domains/payments/records/payments-overview";
import { parseSetupForm } from "#server/domains/payments/payouts/setup-form";

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.set(k, v);
  return data;
};

describe("payments setup form", () => {
  it("defaults to Individual and normalises the email", () => {
    expect(parseSetupForm(form({ email: " Maya@Example.com " }))).toEqual({ kind: "SUCCESS", values: { accountType: "individual", email: "maya@example.com" } });
    expect(parseSetupForm(form({ email: "a@b.example", accountType: "company" }))).toEqual({ kind: "SUCCESS", values: { accountType: "company", email: "a@b.example" } });
  });

  it("refuses a blank or malformed email and an unknown account type, keeping what was typed", () => {
    expect(parseSetupForm(form({ email: "" }))).toMatchObject({ kind: "ERROR", reason: "INVALID_FIELDS", errors: { email: "Required" } });
    expect(parseSetupForm(form({ email: "not-an-email", accountType: "company" }))).toMatchObject({
      kind: "ERROR", reason: "INVALID_FIELDS",
      values: { email: "not-an-email", accountType: "company" },
      errors: { email: "Email is invalid. Please try again." },
    });
    expect(parseSetupForm(form({ email: "a@b.example", accountType: "government" }))).toMatchObject({ kind: "ERROR", reason: "INVALID_FIELDS", errors: { accountType: "Choose Individual or Company." } });
  });
});

describe.each(ENGINES)("My Payments reads on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sandbox = testSandbox(database);
  let payee: Payee;
  let sponsor: string;
  const db = () => database.db;

  const newUser = async () => {
    const id = `sponsor_${crypto.randomBytes(4).toString("hex")}`;
    await db().insert(user).values({ id, name: `Sponsor ${id}`, email: `${id}@pay.example`, emailVerified: true });
    return id;
  };

  beforeAll(async () => {
    payee = await seedPayee(db(), sandbox.provider);
    sponsor = await newUser();
  });

  it("the payout account: none, a row without a provider account, incomplete, complete", async () => {
    const uid = await newUser();
    expect(await payoutAccountOf(db(), uid)).toEqual({ state: "none", accountType: null });
    await db().insert(connectedAccounts).values({ uid, stateToken: `st_${uid}`, accountType: "company" });
    expect(await payoutAccountOf(db(), uid)).toEqual({ state: "none", accountType: null });
    await db().update(connectedAccounts).set({ providerAccountId: `acct_${uid}` }).where(eq(connectedAccounts.uid, uid));
    expect(await payoutAccountOf(db(), uid)).toEqual({ state: "incomplete", accountType: "company" });
    await db().update(connectedAccounts).set({ completed: true }).where(eq(connectedAccounts.uid, uid));
    expect(await payoutAccountOf(db(), uid)).toEqual({ state: "complete", accountType: "company" });
  });

  it("money received per currency from the ledger, and only the payments the person made as a sponsor", async () => {
    const mine = await seedSession(db(), payee, { amount: 5_000, platformFee: 500 });
    const refunded = await seedSession(db(), payee, { amount: 2_000 });
    const guest = await seedSession(db(), payee, { amount: 900 });
    await db().update(sponsorSessions).set({ sponsorUid: sponsor, created: new Date("2026-11-01T10:00:00Z"), expiresAt: new Date(Date.now() + 3_600_000) }).where(eq(sponsorSessions.id, mine.sessionId));
    await db().update(sponsorSessions).set({ sponsorUid: sponsor, created: new Date("2026-11-02T10:00:00Z"), status: "refunded" }).where(eq(sponsorSessions.id, refunded.sessionId));
    await recordPayment(db(), { sessionId: mine.sessionId, paymentIntentId: mine.paymentIntentId, gross: 5_000, providerFee: 175, platformFee: 500, currency: "usd" });
    await recordPayment(db(), { sessionId: refunded.sessionId, paymentIntentId: refunded.paymentIntentId, gross: 2_000, providerFee: 88, platformFee: 0, currency: "usd" });
    await recordRefund(db(), { sessionId: refunded.sessionId, paymentIntentId: refunded.paymentIntentId, amount: 2_000, currency: "usd", payment: { gross: 2_000, platformFee: 0 } });
    await recordPayment(db(), { sessionId: guest.sessionId, paymentIntentId: guest.paymentIntentId, gross: 900, providerFee: 56, platformFee: 0, currency: "usd" });

    const overview = await paymentsOverview(db(), payee.uid);
    expect(overview.account).toEqual({ state: "complete", accountType: "individual" });
    expect(overview.received).toEqual([{ currency: "usd", gross: 5_900, providerFee: 319, platformFee: 500, net: 5_400, platformNet: 181 }]);
    expect(overview.made).toEqual([]);

    const made = await paymentsMadeBy(db(), sponsor);
    expect(made.map((p) => [p.id, p.status, p.amount])).toEqual([
      [refunded.sessionId, "refunded", 2_000],
      [mine.sessionId, "pending", 5_000],
    ]);
    expect(made[0]!.payee).toBe(`Page of ${payee.uid}`);
    expect((await paymentsOverview(db(), sponsor)).received).toEqual([]);
  });

  it("names the creator by profile, then account name, when the page is gone", async () => {
    const s = await seedSession(db(), payee);
    const who = await newUser();
    await db().update(sponsorSessions).set({ sponsorUid: who, bioPageId: null }).where(eq(sponsorSessions.id, s.sessionId));
    expect((await paymentsMadeBy(db(), who))[0]!.payee).toBe(`Creator ${payee.uid}`);
    await db().update(profiles).set({ name: "Maya Makes" }).where(eq(profiles.uid, payee.uid));
    expect((await paymentsMadeBy(db(), who))[0]!.payee).toBe("Maya Makes");
  });

  it("the payouts dashboard link is for the person's own account only", async () => {
    const link = await payoutsDashboardLink(db(), sandbox.provider, payee.uid);
    expect(link.kind).toBe("SUCCESS");
    expect((link as { url: string }).url).toContain(payee.accountId);
    expect(await payoutsDashboardLink(db(), sandbox.provider, sponsor)).toMatchObject({ kind: "ERROR", code: "not-found" });
  });
});
