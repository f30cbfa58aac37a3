import { count, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_THEME } from "#isomorphic/bio-theme";
import { bioPages, profiles, sponsorSessions, user } from "#server/platform/db/schema";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import type { PaymentProvider } from "#server/providers/payments/port";
import { sandboxCheckouts } from "#server/providers/payments/sandbox/schema";
import { seedOption, seedPayee, type Payee } from "#tests/support/payments";
import { testSandbox, withOutage } from "#tests/support/test-sandbox";
import { buildSponsorSession, sessionReceipt, type SponsorCheckoutRequest } from "#server/domains/payments/checkout/sponsor-session";
import { NO_PLATFORM_FUNDS_MESSAGE } from "#isomorphic/payment-limits";

describe.each(ENGINES)("sponsor checkout on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sandbox = testSandbox(database);
  let provider: PaymentProvider;
  let outage: ReturnType<typeof withOutage>["down"];
  let payee: Payee;
  let option: string;
  let freeOption: string;
  const db = () => database.db;
  const options = { platformFeePercent: 10, publicOrigin: "http://app.test" };
  const tip = (over: Partial<SponsorCheckoutRequest> = {}): SponsorCheckoutRequest => ({
    ending: payee.ending, kind: "tip", amount: 2500, sponsorEmail: "fan@sponsor.example", message: "For the next episode", sponsorUid: null, client: null, ...over,
  });
  const build = (input: SponsorCheckoutRequest) => buildSponsorSession(db(), provider, input, options);
  const fieldError = async (over: Partial<SponsorCheckoutRequest>) => {
    const result = await build(tip(over));
    return result.kind === "ERROR" && "fieldErrors" in result ? result.fieldErrors : result;
  };

  /** The checkout the sandbox made for one of our sessions, as it stored what it was asked. */
  const checkoutFor = async (sessionId: string) => (await db().select().from(sandboxCheckouts).where(eq(sandboxCheckouts.sessionId, sessionId)))[0];
  const checkoutCount = async () => (await db().select({ n: count() }).from(sandboxCheckouts))[0]!.n;

  beforeAll(async () => {
    ({ provider, down: outage } = withOutage(sandbox.provider));
    payee = await seedPayee(db(), sandbox.provider);
    option = await seedOption(db(), payee, 10_000);
    freeOption = await seedOption(db(), payee, 0);
  });

  it("makes a pending session and the provider's checkout, keyed by the row id, and returns its address", async () => {
    const result = await build(tip());
    expect(result.kind).toBe("SUCCESS");
    if (result.kind !== "SUCCESS") return;
    const checkout = (await checkoutFor(result.sessionId))!;
    expect(checkout).toMatchObject({
      idempotencyKey: `checkout_${result.sessionId}`,
      sessionId: result.sessionId,
      accountId: payee.accountId,
      amount: 2500,
      currency: "usd",
      applicationFeeAmount: 250,
      productName: `Tip for Page of ${payee.uid}`,
      customerEmail: "fan@sponsor.example",
      successUrl: `http://app.test/app/payments/success?session=${result.sessionId}`,
      cancelUrl: `http://app.test/app/payments/cancelled?session=${result.sessionId}`,
    });
    const [row] = await db().select().from(sponsorSessions).where(eq(sponsorSessions.id, result.sessionId));
    expect(row).toMatchObject({ status: "pending", kind: "tip", postId: null, posterUid: payee.uid, bioPageId: payee.pageId, platformFee: 250, provider: "sandbox", sponsorUid: null });
    expect(row!.providerCheckoutId).toBe(checkout.id);
    expect(result.url).toBe(`http://app.test/sandbox/checkout/${checkout.id}`);
    expect(row!.expiresAt).toEqual(checkout.expiresAt);
    // The provider answers a repeated call with the same key with the same checkout (no second one).
    const again = await provider.createSponsorCheckout({
      idempotencyKey: checkout.idempotencyKey!, sessionId: result.sessionId, destinationAccountId: payee.accountId, amount: 2500, currency: "usd",
      applicationFeeAmount: 250, productName: checkout.productName, sponsorEmail: checkout.customerEmail, successUrl: checkout.successUrl, cancelUrl: checkout.cancelUrl,
    });
    expect(again.checkoutId).toBe(checkout.id);
  });

  it("refuses missing or bad fields with the form's messages", async () => {
    expect(await fieldError({ sponsorEmail: "not-an-email" })).toEqual({ sponsorEmail: "Enter a valid email address" });
    expect(await fieldError({ message: "" })).toEqual({ message: "Required" });
    expect(await fieldError({ message: "x".repeat(1000) })).toEqual({ message: "Must be under 1000 characters" });
    expect((await build(tip({ message: "x".repeat(999) }))).kind).toBe("SUCCESS");
  });

  it("takes a checkout without an email (SPEC §5 requires only the message): stored and sent to the provider as none", async () => {
    const result = await build(tip({ sponsorEmail: "  " }));
    if (result.kind !== "SUCCESS") throw new Error(result.message);
    expect(await checkoutFor(result.sessionId)).toMatchObject({ sessionId: result.sessionId, customerEmail: null });
    const [row] = await db().select().from(sponsorSessions).where(eq(sponsorSessions.id, result.sessionId));
    expect(row).toMatchObject({ sponsorEmail: null, message: "For the next episode", status: "pending" });
  });

  it("keeps the amount within the limits", async () => {
    expect(await fieldError({ amount: 49 })).toEqual({ amount: "The amount must be at least $0.50" });
    // A creator may let tips go down to what the provider can charge (the default minimum is $1).
    await db().update(bioPages).set({ tipMinimum: 50 }).where(eq(bioPages.id, payee.pageId));
    expect((await build(tip({ amount: 50 }))).kind).toBe("SUCCESS");
    await db().update(bioPages).set({ tipMinimum: 100 }).where(eq(bioPages.id, payee.pageId));
    expect((await build(tip({ amount: 1_000_000 }))).kind).toBe("SUCCESS");
    expect(await fieldError({ amount: 1_000_001 })).toEqual({ amount: "The amount must be at most $10,000.00" });
    expect(await fieldError({ amount: 12.5 })).toEqual({ amount: "Enter an amount" });
    expect(await fieldError({ amount: Number.NaN })).toEqual({ amount: "Enter an amount" });
  });

  it("a sponsorship: one of the page's options, at least its minimum; a $0 option cannot be paid here", async () => {
    const ok = await build(tip({ kind: "sponsorship", postId: option, amount: 10_000 }));
    expect(ok.kind).toBe("SUCCESS");
    if (ok.kind === "SUCCESS") {
      const [row] = await db().select().from(sponsorSessions).where(eq(sponsorSessions.id, ok.sessionId));
      expect(row).toMatchObject({ kind: "sponsorship", postId: option, amount: 10_000 });
    }
    expect(await fieldError({ kind: "sponsorship", postId: option, amount: 9_999 })).toEqual({ amount: "The minimum contribution is $100.00" });
    expect(await fieldError({ kind: "sponsorship", postId: freeOption, amount: 5_000 })).toEqual({ postId: NO_PLATFORM_FUNDS_MESSAGE });
    expect(await fieldError({ kind: "sponsorship", postId: "9000000000_notonthepage", amount: 5_000 })).toEqual({ postId: "Choose one of this page's sponsorship options" });
    expect(await fieldError({ kind: "sponsorship", postId: null, amount: 5_000 })).toEqual({ postId: "Choose one of this page's sponsorship options" });
    // Another creator's post offered on nobody's page is not an option here either.
    const other = await seedPayee(db(), sandbox.provider);
    const foreign = await seedOption(db(), other, 100);
    expect(await fieldError({ kind: "sponsorship", postId: foreign, amount: 5_000 })).toEqual({ postId: "Choose one of this page's sponsorship options" });
  });

  it("takes money only for a page whose owner has a complete payout account", async () => {
    const before = await checkoutCount();
    expect(await build(tip({ ending: "no_such_page" }))).toMatchObject({ kind: "ERROR", code: "not-found" });
    const incomplete = await seedPayee(db(), sandbox.provider, { complete: false });
    expect(await build(tip({ ending: incomplete.ending }))).toMatchObject({ kind: "ERROR", code: "aborted", message: `Page of ${incomplete.uid} cannot take payments yet.` });
    expect(await checkoutCount()).toBe(before);
    expect(await db().select().from(sponsorSessions).where(eq(sponsorSessions.posterUid, incomplete.uid))).toEqual([]);
  });

  it("a signed-in sponsor is remembered on the session", async () => {
    await db().insert(user).values({ id: `sponsor_${engine}`, name: "S", email: `sponsor_${engine}@s.example` });
    const result = await build(tip({ sponsorUid: `sponsor_${engine}` }));
    if (result.kind !== "SUCCESS") throw new Error(result.message);
    expect((await db().select().from(sponsorSessions).where(eq(sponsorSessions.id, result.sessionId)))[0]!.sponsorUid).toBe(`sponsor_${engine}`);
  });

  it("a provider that is down leaves no session behind", async () => {
    outage.add("createSponsorCheckout");
    const count = async () => (await db().select().from(sponsorSessions).where(eq(sponsorSessions.posterUid, payee.uid))).length;
    const before = await count();
    expect(await build(tip())).toMatchObject({ kind: "ERROR", code: "unavailable" });
    expect(await count()).toBe(before);
    outage.clear();
  });

  it("the receipt comes from the row: amount, payee, reference", async () => {
    const result = await build(tip({ amount: 1234 }));
    if (result.kind !== "SUCCESS") throw new Error(result.message);
    expect(await sessionReceipt(db(), result.sessionId)).toEqual({
      reference: result.sessionId, amount: 1234, currency: "usd", formattedAmount: "$12.34", payeeName: `Page of ${payee.uid}`, pageEnding: payee.ending, kind: "tip", status: "pending",
      bioPageId: payee.pageId, thankYouMessage: "", receiptEmail: "f•••@sponsor.example",
      look: { name: `Page of ${payee.uid}`, ending: payee.ending, photoId: null, theme: DEFAULT_THEME },
      appears: { kind: "not-shown" },
    });
    expect(await sessionReceipt(db(), "ss_nope")).toBeNull();
  });

  it("the receipt says where the fan now appears: on the wall by name, as a private supporter, or to the owner only", async () => {
    const paid = async (over: Partial<SponsorCheckoutRequest>, set: Partial<typeof sponsorSessions.$inferInsert> = {}) => {
      const result = await build(tip(over));
      if (result.kind !== "SUCCESS") throw new Error(result.message);
      await db().update(sponsorSessions).set({ status: "completed", ...set }).where(eq(sponsorSessions.id, result.sessionId));
      return (await sessionReceipt(db(), result.sessionId))!.appears;
    };
    const wall = (on: boolean) => db().update(bioPages).set({ wallEnabled: on }).where(eq(bioPages.id, payee.pageId));
    await wall(false);
    expect(await paid({ supporterName: "Sam", message: "Wall off" })).toEqual({ kind: "owner-only" });
    await wall(true);
    expect(await paid({ supporterName: " Sam ", message: "Named" })).toEqual({ kind: "wall", name: "Sam" });
    expect(await paid({ supporterName: "", message: "Nameless" })).toEqual({ kind: "wall", name: null });
    expect(await paid({ supporterName: "Sam", private: true, message: "Private" })).toEqual({ kind: "wall-private" });
    // Only what the wall itself shows: not a support the owner hid, nor one refunded.
    expect(await paid({ supporterName: "Sam", message: "Hidden" }, { hiddenFromWall: true })).toEqual({ kind: "not-shown" });
    expect(await paid({ supporterName: "Sam", message: "Refunded" }, { status: "refunded" })).toEqual({ kind: "not-shown" });
    await wall(false);
  });

  it("a page whose owner turned payments off offers no sponsorship", async () => {
    await db().update(profiles).set({ paymentsEnabled: false }).where(eq(profiles.uid, payee.uid));
    expect(await fieldError({ kind: "sponsorship", postId: option, amount: 10_000 })).toEqual({ postId: "Choose one of this page's sponsorship options" });
    await db().update(profiles).set({ paymentsEnabled: true }).where(eq(profiles.uid, payee.uid));
  });
});
