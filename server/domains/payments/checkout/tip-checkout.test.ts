import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { bioPages, sponsorSessions } from "#server/platform/db/schema";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { testSandbox } from "#tests/support/test-sandbox";
import { seedPayee, type Payee } from "#tests/support/payments";
import { buildSponsorSession, maskedEmail, sessionReceipt } from "#server/domains/payments/checkout/sponsor-session";
import { loadCheckoutOffer, startSponsorCheckout } from "#server/domains/payments/checkout/start-checkout";

/** The creator's rules for tips at checkout (the bio editor's Support settings), and what the result pages show. */
describe.each(ENGINES)("tips at checkout on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sandbox = testSandbox(database);
  const db = () => database.db;
  const settings = { platformFeePercent: 0, publicOrigin: "http://app.test" };
  let payee: Payee;
  let ip = 0;
  /** A fresh network each time: the checkout rate limits are not what these tests are about. */
  const client = (browserToken: string | null = null) => ({ ip: `198.51.100.${++ip}`, browserToken });

  beforeAll(async () => {
    payee = await seedPayee(db(), sandbox.provider);
    await db().update(bioPages).set({ tipPresets: [200, 700, 1500], tipMinimum: 200, thankYouMessage: "You made my week!" }).where(eq(bioPages.id, payee.pageId));
  });

  const tip = (fields: { amount: string; sponsorEmail?: string; message?: string; supporterName?: string; private?: boolean }, token: string | null = null) =>
    startSponsorCheckout(
      db(),
      sandbox.provider,
      { ending: payee.ending, kind: "tip", postId: null },
      { sponsorEmail: "", message: "Thanks!", ...fields },
      null,
      client(token),
      settings,
    );

  it("starts the amount at the preset the fan picked, when it can be paid, and offers the creator's presets", async () => {
    const offer = async (amount: number | null) => loadCheckoutOffer(db(), { ending: payee.ending, kind: "tip", postId: null, amount });
    expect(await offer(700)).toMatchObject({ kind: "SUCCESS", offer: { suggestedAmount: 700, tipPresets: [200, 700, 1500], tipMinimum: 200, acceptsTips: true } });
    expect(await offer(100)).toMatchObject({ offer: { suggestedAmount: null } });
    expect(await offer(2_000_000)).toMatchObject({ offer: { suggestedAmount: null } });
    expect(await offer(null)).toMatchObject({ offer: { suggestedAmount: null, look: { name: `Page of ${payee.uid}`, ending: payee.ending, photoId: null, theme: { preset: "sponsorgrid" } } } });
  });

  it("holds a tip to the creator's minimum and lets the fan pay more", async () => {
    expect(await tip({ amount: "1.50" })).toMatchObject({ code: "invalid-argument", fieldErrors: { amount: "The minimum tip is $2.00" } });
    // Below what the provider can charge too: the creator's minimum is the one worth saying.
    expect(await tip({ amount: "0.10" })).toMatchObject({ fieldErrors: { amount: "The minimum tip is $2.00" } });
    // With another field wrong too, both are said at once.
    expect(await tip({ amount: "1", message: "" })).toMatchObject({ fieldErrors: { amount: "The minimum tip is $2.00", message: "Required" } });
    const direct = await buildSponsorSession(
      db(),
      sandbox.provider,
      { ending: payee.ending, kind: "tip", amount: 199, sponsorEmail: "", message: "Hi", sponsorUid: null, client: client() },
      settings,
    );
    expect(direct).toMatchObject({ code: "invalid-argument", fieldErrors: { amount: "The minimum tip is $2.00" } });
    expect(await tip({ amount: "2" })).toMatchObject({ kind: "SUCCESS" });
    expect(await tip({ amount: "250" })).toMatchObject({ kind: "SUCCESS" });
  });

  it("stores the supporter's name and their wish to stay private", async () => {
    const named = await tip({ amount: "5", supporterName: "  Sam   the fan ", private: true });
    const anonymous = await tip({ amount: "5", supporterName: "   " });
    expect(named.kind === "SUCCESS" && anonymous.kind === "SUCCESS").toBe(true);
    if (named.kind !== "SUCCESS" || anonymous.kind !== "SUCCESS") return;
    const row = async (id: string) => (await db().select().from(sponsorSessions).where(eq(sponsorSessions.id, id)))[0];
    expect(await row(named.sessionId)).toMatchObject({ supporterName: "Sam the fan", private: true, amount: 500 });
    expect(await row(anonymous.sessionId)).toMatchObject({ supporterName: null, private: false });
    expect(await tip({ amount: "5", supporterName: "x".repeat(100) })).toMatchObject({ fieldErrors: { supporterName: "Must be under 100 characters" } });
  });

  it("refuses a tip, with a message and no session, while the creator has tips off", async () => {
    await db().update(bioPages).set({ acceptTips: false }).where(eq(bioPages.id, payee.pageId));
    try {
      const before = await db().select().from(sponsorSessions).where(eq(sponsorSessions.bioPageId, payee.pageId));
      expect(await tip({ amount: "5" })).toMatchObject({ kind: "ERROR", code: "aborted", reason: "TIPS_OFF", message: `Page of ${payee.uid} isn't taking tips right now.` });
      expect(await db().select().from(sponsorSessions).where(eq(sponsorSessions.bioPageId, payee.pageId))).toHaveLength(before.length);
      expect(await loadCheckoutOffer(db(), { ending: payee.ending, kind: "tip", postId: null })).toMatchObject({ offer: { acceptsTips: false } });
    } finally {
      await db().update(bioPages).set({ acceptTips: true }).where(eq(bioPages.id, payee.pageId));
    }
  });

  it("shows the receipt's address in full only to the browser that sent the checkout, and the creator's thank-you", async () => {
    const token = "browser-token-of-the-fan-0001";
    const started = await tip({ amount: "5", sponsorEmail: "sam@fans.example", supporterName: "Sam" }, token);
    if (started.kind !== "SUCCESS") throw new Error(started.message);
    expect(await sessionReceipt(db(), started.sessionId, token)).toMatchObject({ receiptEmail: "sam@fans.example", thankYouMessage: "You made my week!", formattedAmount: "$5.00" });
    expect(await sessionReceipt(db(), started.sessionId, "another-browser-token-0002")).toMatchObject({ receiptEmail: "s•••@fans.example" });
    expect(await sessionReceipt(db(), started.sessionId, null)).toMatchObject({ receiptEmail: "s•••@fans.example" });
    const noEmail = await tip({ amount: "5" }, token);
    if (noEmail.kind !== "SUCCESS") throw new Error(noEmail.message);
    expect(await sessionReceipt(db(), noEmail.sessionId, token)).toMatchObject({ receiptEmail: null });
    expect(maskedEmail("x@y.example")).toBe("x•••@y.example");
  });
});
