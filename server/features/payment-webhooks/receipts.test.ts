import { and, eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { CHECKOUT_RATE_LIMITS } from "#server/platform/abuse/rules";
import { emailOutbox, ledgerEntries, sponsorSessions, user } from "#server/platform/db/schema";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { testSandbox } from "#tests/support/test-sandbox";
import { events, payAtSandbox, seedPayee, seedSession, webhookDeps, type Payee } from "#tests/support/payments";
import { receivePaymentEvent } from "./intake";

/** A receipt is no mail relay. */
describe.each(ENGINES)("sponsor receipts on %s", (engine) => {
  const database = migratedDatabase(engine);
  const db = () => database.db;
  const sandbox = testSandbox(database);
  let payee: Payee;
  const ATTACKER_TEXT = "Buy cheap watches at https://spam.example now";

  /** A paid session whose sponsor email, message and sponsor are as given. */
  const paid = async (set: Partial<typeof sponsorSessions.$inferInsert>, atCheckout: { email?: string } = {}) => {
    const seeded = await seedSession(db(), payee);
    await db().update(sponsorSessions).set(set).where(eq(sponsorSessions.id, seeded.sessionId));
    const s = await payAtSandbox(db(), sandbox.provider, payee, seeded, atCheckout);
    expect(await receivePaymentEvent(db(), events.checkout("checkout.completed", s), webhookDeps(db(), sandbox.provider))).toMatchObject({ kind: "SUCCESS", outcome: "HANDLED" });
    return s;
  };
  const receiptsTo = (to: string) => db().select().from(emailOutbox).where(and(eq(emailOutbox.to, to), eq(emailOutbox.subject, `Your receipt: $25.00 to Page of ${payee.uid}`)));

  beforeEach(async () => {
    payee = await seedPayee(db(), sandbox.provider);
  });

  it("to an address nobody verified: amount, page and date, never the payer's words nor our internal id", async () => {
    const to = `stranger_${engine}_${Date.now()}@mail.example`;
    const s = await paid({ sponsorEmail: to, message: ATTACKER_TEXT });
    const [mail] = await receiptsTo(to);
    expect(mail!.text).toContain("Your payment of $25.00 to Page of");
    expect(mail!.text).toMatch(/went through on [A-Z][a-z]+ \d{1,2}, 20\d\d \(UTC\)/);
    expect(mail!.text).toContain("Keep this email as your receipt.");
    for (const body of [mail!.text, mail!.html, mail!.subject]) {
      expect(body).not.toContain(s.sessionId);
      expect(body).not.toContain("spam.example");
      expect(body).not.toContain("Your message");
    }
  });

  it("goes to the address given at the checkout, not the one typed on our form; the message only when that is the sponsor's own verified address", async () => {
    const uid = `fan_${engine}_${Date.now()}`;
    const email = `${uid}@mail.example`;
    await db().insert(user).values({ id: uid, name: "Fan", email, emailVerified: true });
    const typed = `victim_${uid}@mail.example`;
    await paid({ sponsorEmail: typed, message: ATTACKER_TEXT }, { email: `payer_${uid}@mail.example` });
    expect(await receiptsTo(typed)).toEqual([]);
    const [mail] = await receiptsTo(`payer_${uid}@mail.example`);
    expect(mail!.text).not.toContain("spam.example");

    // The sponsor's own verified address typed, another given at the checkout: no words repeated.
    await paid({ sponsorEmail: email, message: ATTACKER_TEXT, sponsorUid: uid }, { email: typed });
    expect((await receiptsTo(typed))[0]!.text).not.toContain("spam.example");
    // Typed a stranger's, but confirmed their own at the checkout: their words come back to them.
    await paid({ sponsorEmail: typed, message: "For the next episode", sponsorUid: uid }, { email });
    expect((await receiptsTo(email))[0]!.text).toContain("Your message: “For the next episode”");
  });

  it("the signed-in sponsor's own verified address gets their message back", async () => {
    const uid = `fan_${engine}_${Date.now()}`;
    const email = `${uid}@mail.example`;
    await db().insert(user).values({ id: uid, name: "Fan", email, emailVerified: true });
    await paid({ sponsorEmail: email.toUpperCase(), message: "For the next episode", sponsorUid: uid });
    expect((await receiptsTo(email.toUpperCase()))[0]!.text).toContain("Your message: “For the next episode”");

    // The same person naming another address, or an account that is not verified: no message.
    const other = `other_${uid}@mail.example`;
    await paid({ sponsorEmail: other, message: "For the next episode", sponsorUid: uid });
    expect((await receiptsTo(other))[0]!.text).not.toContain("For the next episode");
    await db().update(user).set({ emailVerified: false }).where(eq(user.id, uid));
    const unverified = `${uid}@mail.example`;
    await paid({ sponsorEmail: unverified, message: "Unverified words", sponsorUid: uid });
    expect((await receiptsTo(unverified)).map((m) => m.text).join()).not.toContain("Unverified words");
  });

  it(`one address gets at most ${CHECKOUT_RATE_LIMITS.receiptsPerRecipient.limit} receipts an hour; the payments are recorded all the same`, async () => {
    const to = `target_${engine}_${Date.now()}@mail.example`;
    const sessions = [];
    for (let i = 0; i < CHECKOUT_RATE_LIMITS.receiptsPerRecipient.limit + 5; i++) sessions.push(await paid({ sponsorEmail: i % 2 ? to : to.toUpperCase() }));
    const mails = [...(await receiptsTo(to)), ...(await receiptsTo(to.toUpperCase()))];
    expect(mails).toHaveLength(CHECKOUT_RATE_LIMITS.receiptsPerRecipient.limit);
    for (const s of sessions) {
      expect((await db().select().from(ledgerEntries).where(eq(ledgerEntries.sessionId, s.sessionId))).length).toBe(1);
    }
  });

  it("no email, no receipt", async () => {
    const s = await paid({ sponsorEmail: null });
    const mails = await db().select().from(emailOutbox).where(eq(emailOutbox.subject, `Your receipt: $25.00 to Page of ${payee.uid}`));
    expect(mails).toEqual([]);
    expect((await db().select().from(sponsorSessions).where(eq(sponsorSessions.id, s.sessionId)))[0]!.status).toBe("completed");
  });
});
