import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { proMemberships, refundRequests, user } from "#server/platform/db/schema";
import { receivePaymentEvent } from "#server/features/payment-webhooks/intake";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { events, payAtSandbox, seedPayee, seedSession, webhookDeps, type Payee, type SeededSession } from "#tests/support/payments";
import { testSandbox } from "#tests/support/test-sandbox";
import { paymentRecord } from "#server/domains/payments/records/payment-record";
import { payoutAccountList, platformFeeByMonth, proMembershipList } from "#server/domains/payments/records/platform-money";
import { refundSponsorship } from "#server/domains/payments/refunds/refunds";
import { refundAsStaff } from "#server/domains/payments/refunds/staff-refund";

describe.each(ENGINES)("one payment's record and the platform's money on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sandbox = testSandbox(database);
  const db = () => database.db;
  let payee: Payee;
  let paid: SeededSession;

  const record = async () => {
    const found = await paymentRecord(db(), paid.sessionId);
    if (found.kind !== "SUCCESS") throw new Error(found.message);
    return found.record;
  };

  beforeEach(async () => {
    payee = await seedPayee(db(), sandbox.provider);
    paid = await payAtSandbox(db(), sandbox.provider, payee, await seedSession(db(), payee, { amount: 4000, platformFee: 400 }));
    await receivePaymentEvent(db(), events.checkout("checkout.completed", paid), webhookDeps(db(), sandbox.provider));
  });

  it("holds the creator, the page, the ledger rows and the provider events that name the payment", async () => {
    const r = await record();
    expect(r.session).toMatchObject({ id: paid.sessionId, status: "completed", amount: 4000, paymentIntentId: paid.paymentIntentId });
    expect(r.creator).toEqual({ uid: payee.uid, email: `${payee.uid}@pay.example`, name: `Creator ${payee.uid}` });
    expect(r.page?.ending).toBe(payee.ending);
    expect(r.ledger.map((e) => [e.kind, e.gross, e.platformFee, e.net, e.providerReference])).toEqual([["payment", 4000, 400, 3600, paid.paymentIntentId]]);
    expect(r.events.map((e) => [e.type, e.handledAt !== null])).toEqual([["checkout.completed", true]]);
    expect(r.refund).toBeNull();
    expect(await paymentRecord(db(), "ss_nothing")).toMatchObject({ kind: "ERROR", code: "not-found" });
  });

  it("says who issued the refund: staff with their reason, the creator, or the provider's dashboard", async () => {
    await db().insert(user).values({ id: `staff_${paid.sessionId}`, name: "Sam", email: `staff_${paid.sessionId}@staff.example`, emailVerified: true });
    const staff = { id: `staff_${paid.sessionId}`, actor: { kind: "staff" as const, id: `staff_${paid.sessionId}`, email: `staff_${paid.sessionId}@staff.example` } };
    expect(await refundAsStaff(db(), sandbox.provider, { staff, sessionId: paid.sessionId, reason: "  " })).toMatchObject({ kind: "ERROR", code: "invalid-argument", fieldErrors: { reason: "Say why this payment is refunded." } });
    expect(await refundAsStaff(db(), sandbox.provider, { staff, sessionId: paid.sessionId, reason: "Paid twice." })).toMatchObject({ kind: "SUCCESS", alreadyRequested: false });
    expect((await record()).refund?.issuedBy).toEqual({ kind: "staff", email: staff.actor.email, reason: "Paid twice." });
    // Asked again, the refund is the one already asked for.
    expect(await refundAsStaff(db(), sandbox.provider, { staff, sessionId: paid.sessionId, reason: "Again." })).toMatchObject({ kind: "SUCCESS", alreadyRequested: true });

    await db().update(refundRequests).set({ requestedBy: payee.uid }).where(eq(refundRequests.sessionId, paid.sessionId));
    expect((await record()).refund?.issuedBy).toEqual({ kind: "creator", email: `${payee.uid}@pay.example` });
    await db().update(refundRequests).set({ requestedBy: null }).where(eq(refundRequests.sessionId, paid.sessionId));
    expect((await record()).refund?.issuedBy).toEqual({ kind: "provider-dashboard" });
  });

  it("the creator's own refund reads as theirs, and a refunded payment's fee leaves the month's platform fee", async () => {
    const before = (await platformFeeByMonth(db())).find((m) => m.currency === "usd")!;
    expect(await refundSponsorship(db(), sandbox.provider, { uid: payee.uid, sessionId: paid.sessionId })).toMatchObject({ kind: "SUCCESS" });
    await receivePaymentEvent(db(), events.chargeRefunded(paid), webhookDeps(db(), sandbox.provider));
    const r = await record();
    expect(r.session.status).toBe("refunded");
    expect(r.refund?.issuedBy).toEqual({ kind: "creator", email: `${payee.uid}@pay.example` });
    expect(r.ledger.map((e) => [e.kind, e.gross, e.platformFee])).toEqual([["payment", 4000, 400], ["refund", -4000, -400]]);
    const after = (await platformFeeByMonth(db())).find((m) => m.currency === "usd")!;
    expect(after.platformFee).toBe(before.platformFee - 400);
    expect(after.margin).toBe(after.platformFee - after.providerFee);
  });

  it("lists Pro memberships and payout accounts with their owners", async () => {
    await db().insert(proMemberships).values({ uid: payee.uid, plan: "launchpad", status: "active", providerCustomerId: `cus_${payee.uid}`, currentPeriodEnd: new Date("2027-01-01T00:00:00Z") });
    expect((await proMembershipList(db())).find((m) => m.uid === payee.uid)).toMatchObject({ email: `${payee.uid}@pay.example`, plan: "launchpad", status: "active", providerCustomerId: `cus_${payee.uid}` });
    expect((await payoutAccountList(db())).find((a) => a.uid === payee.uid)).toMatchObject({ email: `${payee.uid}@pay.example`, state: "complete", providerAccountId: payee.accountId });
  });
});
