import { and, asc, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { emailOutbox, ledgerEntries, memberships, moneyEvents, notifications, sponsorSessions } from "#server/platform/db/schema";
import type { PaymentEvent } from "#server/providers/payments/events";
import { receivePaymentEvent } from "#server/features/payment-webhooks/intake";
import { readMemberToken } from "#server/domains/memberships/member-link";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { events, webhookDeps } from "#tests/support/payments";
import { FakeMembershipBilling, fakeCardFee, seedPendingMembership, type SeededMembership } from "#tests/support/fake-membership-billing";
import { endReason, refreshMembership, statusFromProvider, syncMembership } from "./sync";

describe("a membership's status from the provider's", () => {
  const paid = { invoices: [{ invoiceId: "in_1", paymentIntentId: "pi_1", amount: 500, currency: "usd", status: "paid" as const, periodStart: new Date(), periodEnd: new Date(), paidAt: new Date(), reason: "subscription_create" as const }] };
  it("maps every provider status", () => {
    expect(statusFromProvider({ status: "active", cancelAtPeriodEnd: false, ...paid })).toBe("active");
    expect(statusFromProvider({ status: "active", cancelAtPeriodEnd: true, ...paid })).toBe("cancelled");
    expect(statusFromProvider({ status: "past_due", cancelAtPeriodEnd: false, ...paid })).toBe("past_due");
    expect(statusFromProvider({ status: "past_due", cancelAtPeriodEnd: true, ...paid })).toBe("cancelled");
    expect(statusFromProvider({ status: "canceled", cancelAtPeriodEnd: false, ...paid })).toBe("ended");
    expect(statusFromProvider({ status: "incomplete", cancelAtPeriodEnd: false, invoices: [] })).toBe("pending");
    expect(statusFromProvider({ status: "incomplete_expired", cancelAtPeriodEnd: false, invoices: [] })).toBe("expired");
  });
  it("says why it ended", () => {
    expect(endReason({ cancelAtPeriodEnd: true, ...paid })).toBe("cancelled");
    expect(endReason({ cancelAtPeriodEnd: false, ...paid })).toBe("ended_now");
    expect(endReason({ cancelAtPeriodEnd: false, invoices: [...paid.invoices, { ...paid.invoices[0]!, invoiceId: "in_2", status: "uncollectible", reason: "subscription_cycle" }] })).toBe("payment_failed");
  });
});

describe.each(ENGINES)("the membership writer on %s", (engine) => {
  const database = migratedDatabase(engine);
  const db = () => database.db;

  function setup() {
    const fake = new FakeMembershipBilling();
    const deps = webhookDeps(db(), fake.provider);
    const deliver = async (list: PaymentEvent[]) => {
      const results = [];
      for (const event of list) results.push(await receivePaymentEvent(db(), event, deps));
      return results;
    };
    return { fake, deps, deliver };
  }

  async function rowOf(id: string) {
    const [row] = await db().select().from(memberships).where(eq(memberships.id, id));
    return row!;
  }
  async function periodsOf(id: string) {
    return db().select().from(sponsorSessions).where(eq(sponsorSessions.membershipId, id)).orderBy(asc(sponsorSessions.created));
  }
  async function ledgerOf(id: string) {
    const sessions = await periodsOf(id);
    if (sessions.length === 0) return [];
    return db().select().from(ledgerEntries).where(inArray(ledgerEntries.sessionId, sessions.map((s) => s.id)));
  }
  async function mailsTo(to: string) {
    return db().select().from(emailOutbox).where(eq(emailOutbox.to, to)).orderBy(asc(emailOutbox.createdAt), asc(emailOutbox.id));
  }
  async function noticesOf(m: SeededMembership) {
    return db().select().from(notifications).where(eq(notifications.uid, m.creatorUid)).orderBy(asc(notifications.created));
  }
  async function factsOf(id: string) {
    const rows = await db().select({ type: moneyEvents.type, key: moneyEvents.key }).from(moneyEvents);
    return rows.filter((r) => r.key?.startsWith(`membership:${id}:`)).map((r) => r.key!.replace(`membership:${id}:`, "")).sort();
  }

  async function joined(over: Parameters<typeof seedPendingMembership>[1] = {}) {
    const t = setup();
    const m = await seedPendingMembership(db(), over);
    const { subscriptionId, events: joinEvents } = t.fake.join({ membershipId: m.membershipId, checkoutId: m.checkoutId, amount: 500 });
    await t.deliver(joinEvents);
    return { ...t, m, subscriptionId };
  }

  it("a paid checkout makes the member: active, one period in the ledger with the real fee, a welcome mail with the member link, the creator told with the amount and tier", async () => {
    const { m, subscriptionId, fake } = await joined();
    const row = await rowOf(m.membershipId);
    expect(row).toMatchObject({ status: "active", providerSubscriptionId: subscriptionId, amount: 500, interval: "month", cancelAtPeriodEnd: false, endedAt: null });
    expect(row.startedAt).not.toBeNull();
    expect(row.currentPeriodEnd?.getTime()).toBe(fake.state(subscriptionId).currentPeriodEnd.getTime());

    const [period, ...others] = await periodsOf(m.membershipId);
    expect(others).toHaveLength(0);
    expect(period).toMatchObject({ kind: "membership", status: "completed", posterUid: m.creatorUid, bioPageId: m.pageId, amount: 500, platformFee: 50, supporterName: "Maya Fan", private: false, paymentIntentId: fake.paidIntents(subscriptionId)[0] });
    const ledger = await ledgerOf(m.membershipId);
    expect(ledger.map((e) => [e.kind, e.gross, e.providerFee, e.platformFee, e.net])).toEqual([["payment", 500, fakeCardFee(500), 50, 450]]);

    const mails = await mailsTo(m.memberEmail!);
    expect(mails.map((mail) => mail.subject)).toEqual(["Welcome: you're a Gold member of Maya Makes"]);
    expect(mails[0]!.text).toContain("Your first payment of $5.00 went through");
    expect(mails[0]!.text).toContain("A message from Maya Makes: “Thanks for joining!”");
    const token = mails[0]!.meta.url!.split("/membership/")[1]!;
    expect(readMemberToken(webhookDeps(db(), fake.provider).memberLinkKey, token)).toEqual({ membershipId: m.membershipId, linkVersion: 1 });

    // One notification for the creator (not also "payment received"): the amount and the tier.
    const notices = await noticesOf(m);
    expect(notices.map((n) => [n.kind, n.title])).toEqual([["member-joined", "Maya Fan joined Gold at $5.00/month"]]);
    expect(await factsOf(m.membershipId)).toEqual(["created"]);
  });

  it("finds the subscription of a completed checkout through the provider when the event names none", async () => {
    const t = setup();
    const m = await seedPendingMembership(db());
    const { events: joinEvents } = t.fake.join({ membershipId: m.membershipId, checkoutId: m.checkoutId, amount: 500 });
    const checkoutCompleted = joinEvents[0]!;
    expect(checkoutCompleted).toMatchObject({ subscriptionId: null, cause: "checkout.completed" });
    expect(await t.deliver([checkoutCompleted])).toMatchObject([{ kind: "SUCCESS", outcome: "HANDLED" }]);
    expect((await rowOf(m.membershipId)).status).toBe("active");
  });

  it("fills in the member's address from the checkout when we had none, and keeps one we had", async () => {
    const t = setup();
    const m = await seedPendingMembership(db(), { memberEmail: null });
    await t.deliver(t.fake.join({ membershipId: m.membershipId, checkoutId: m.checkoutId, amount: 500, email: "given@member.example" }).events);
    expect((await rowOf(m.membershipId)).memberEmail).toBe("given@member.example");
    const kept = await joined({ memberEmail: "ours@member.example" });
    expect((await rowOf(kept.m.membershipId)).memberEmail).toBe("ours@member.example");
  });

  it("each event and redelivery of the same truth changes nothing more", async () => {
    const { m, subscriptionId, fake, deliver } = await joined();
    const again = [...fake.renew(subscriptionId)];
    await deliver([...again, ...again]);
    const extra = { provider: "sandbox" as const, eventId: "evt_again_" + m.membershipId, occurredAt: new Date(), type: "membership.changed" as const, membershipId: m.membershipId, subscriptionId, checkoutId: null, cause: "subscription.updated" as const };
    await deliver([extra, extra]);
    expect(await periodsOf(m.membershipId)).toHaveLength(2);
    expect((await ledgerOf(m.membershipId)).filter((e) => e.kind === "payment")).toHaveLength(2);
    expect((await mailsTo(m.memberEmail!)).map((mail) => mail.meta.kind)).toEqual(["membership-welcome", "membership-receipt"]);
    expect((await noticesOf(m)).map((n) => n.kind)).toEqual(["member-joined", "member-renewed"]);
  });

  it("a renewal is a new period, a receipt to the member, and 'renewed' to the creator", async () => {
    const { m, subscriptionId, fake, deliver } = await joined();
    await deliver(fake.renew(subscriptionId));
    const periods = await periodsOf(m.membershipId);
    expect(periods.map((p) => p.paymentIntentId)).toEqual(fake.paidIntents(subscriptionId));
    const receipt = (await mailsTo(m.memberEmail!))[1]!;
    expect(receipt.subject).toBe("Your receipt: $5.00 to Maya Makes (Gold)");
    expect(receipt.text).toContain("Your Gold membership of Maya Makes renewed: $5.00 was charged");
    expect(receipt.meta.url).toContain("/membership/");
    expect((await noticesOf(m)).at(-1)).toMatchObject({ kind: "member-renewed", title: "Maya Fan renewed Gold: $5.00" });
    expect(await factsOf(m.membershipId)).toEqual(["created", `renewed:${subscriptionId}_in2`]);
  });

  it("a failed renewal: past due, a mail with the way to a new card; then recovered: active, and the period recorded", async () => {
    const { m, subscriptionId, fake, deliver } = await joined();
    await deliver(fake.renew(subscriptionId, { fail: true }));
    expect((await rowOf(m.membershipId)).status).toBe("past_due");
    const failed = (await mailsTo(m.memberEmail!)).at(-1)!;
    expect(failed).toMatchObject({ subject: "Your Gold payment to Maya Makes failed" });
    expect(failed.text).toContain("“Update card”");
    expect(failed.meta).toMatchObject({ kind: "membership-payment-failed", url: expect.stringContaining("/membership/") });
    expect((await noticesOf(m)).map((n) => n.kind)).toEqual(["member-joined"]);

    await deliver(fake.recover(subscriptionId));
    expect((await rowOf(m.membershipId)).status).toBe("active");
    expect(await periodsOf(m.membershipId)).toHaveLength(2);
    expect(await factsOf(m.membershipId)).toEqual(["created", `payment_failed:${subscriptionId}_in2`, `renewed:${subscriptionId}_in2`].sort());
  });

  it("retries that gave up end it: the member is told why, the creator with the amount and tier", async () => {
    const { m, subscriptionId, fake, deliver } = await joined();
    await deliver([...fake.renew(subscriptionId, { fail: true }), ...fake.giveUp(subscriptionId)]);
    const row = await rowOf(m.membershipId);
    expect(row).toMatchObject({ status: "ended", cancelAtPeriodEnd: false });
    expect(row.endedAt).not.toBeNull();
    const mails = await mailsTo(m.memberEmail!);
    expect(mails.map((mail) => mail.meta.kind).sort()).toEqual(["membership-ended", "membership-payment-failed", "membership-welcome"]);
    expect(mails.find((mail) => mail.meta.kind === "membership-ended")!.text).toContain("we could not charge your card for the renewal");
    expect((await noticesOf(m)).at(-1)).toMatchObject({ kind: "member-ended", title: "Maya Fan's Gold membership ended", message: expect.stringContaining("The $5.00/month renewal for Maya Makes could not be charged after several tries") });
  });

  it("cancel: a member until the period ends, the creator told; resume: active again; cancel and run out: ended, the creator not told twice", async () => {
    const { m, subscriptionId, fake, deliver } = await joined();
    await deliver(fake.setCancelAtPeriodEnd(subscriptionId, true));
    let row = await rowOf(m.membershipId);
    expect(row).toMatchObject({ status: "cancelled", cancelAtPeriodEnd: true });
    expect((await noticesOf(m)).at(-1)).toMatchObject({ kind: "member-cancelled", title: "Maya Fan cancelled Gold ($5.00/month)" });

    await deliver(fake.setCancelAtPeriodEnd(subscriptionId, false));
    row = await rowOf(m.membershipId);
    expect(row).toMatchObject({ status: "active", cancelAtPeriodEnd: false });

    await deliver([...fake.setCancelAtPeriodEnd(subscriptionId, true), ...fake.renew(subscriptionId)]);
    row = await rowOf(m.membershipId);
    expect(row).toMatchObject({ status: "ended" });
    expect(row.endedAt?.getTime()).toBe(fake.state(subscriptionId).endedAt!.getTime());
    expect((await noticesOf(m)).map((n) => n.kind)).toEqual(["member-joined", "member-cancelled"]);
    expect((await mailsTo(m.memberEmail!)).map((mail) => mail.meta.kind)).toEqual(["membership-welcome", "membership-ended"]);
    expect((await mailsTo(m.memberEmail!)).at(-1)!.text).toContain("as it was cancelled");
  });

  it("a change of tier's price is the row's amount, and the next period is charged it", async () => {
    const { m, subscriptionId, fake, deliver } = await joined();
    await deliver(fake.changePrice(subscriptionId, 1200));
    expect((await rowOf(m.membershipId)).amount).toBe(1200);
    await deliver(fake.renew(subscriptionId));
    expect((await periodsOf(m.membershipId)).map((p) => [p.amount, p.platformFee])).toEqual([
      [500, 50],
      [1200, 120],
    ]);
  });

  it("ended at once: the member and the creator told", async () => {
    const { m, subscriptionId, fake, deliver } = await joined();
    await deliver(fake.endNow(subscriptionId));
    expect((await rowOf(m.membershipId)).status).toBe("ended");
    expect((await noticesOf(m)).at(-1)).toMatchObject({ kind: "member-ended", message: expect.stringContaining("ended at once") });
  });

  it("a first payment that failed is pending, with nobody told; a checkout that lapsed unpaid is expired", async () => {
    const t = setup();
    const m = await seedPendingMembership(db());
    await t.deliver(t.fake.join({ membershipId: m.membershipId, checkoutId: m.checkoutId, amount: 500, paid: false }).events);
    expect((await rowOf(m.membershipId)).status).toBe("pending");
    expect(await factsOf(m.membershipId)).toEqual([]);

    const lapsed = await seedPendingMembership(db());
    await t.deliver([t.fake.expiredCheckout(lapsed.membershipId, lapsed.checkoutId)]);
    expect((await rowOf(lapsed.membershipId)).status).toBe("expired");
    expect(await mailsTo(lapsed.memberEmail!)).toEqual([]);
  });

  it("a subscription that is not one of our memberships is logged and left alone", async () => {
    const t = setup();
    const { subscriptionId, events: list } = t.fake.join({ membershipId: "mem_not_ours", checkoutId: "cs_not_ours", amount: 500 });
    expect(await t.deliver(list)).toMatchObject([{ kind: "SUCCESS" }, { kind: "SUCCESS" }, { kind: "SUCCESS" }]);
    expect(await db().select().from(sponsorSessions).where(eq(sponsorSessions.paymentIntentId, t.fake.paidIntents(subscriptionId)[0]!))).toEqual([]);
  });

  it("a period is refunded and disputed through the tip's handlers", async () => {
    const { m, subscriptionId, fake, deliver } = await joined();
    await deliver(fake.renew(subscriptionId));
    const [first, second] = fake.paidIntents(subscriptionId);
    await deliver([events.chargeRefunded({ sessionId: "", checkoutId: "", paymentIntentId: first!, amount: 500, platformFee: 50 })]);
    await deliver([events.disputeChanged({ paymentIntentId: second!, amount: 500 }, "lost")]);
    const periods = await periodsOf(m.membershipId);
    expect(periods.map((p) => p.status)).toEqual(["refunded", "disputed"]);
    const ledger = await ledgerOf(m.membershipId);
    expect(ledger.map((e) => `${e.kind} ${e.gross} ${e.platformFee}`).sort()).toEqual(["dispute -500 -50", "payment 500 50", "payment 500 50", "refund -500 -50"]);
    expect((await noticesOf(m)).map((n) => n.kind)).toEqual(expect.arrayContaining(["refund-done", "dispute-closed"]));
    expect((await noticesOf(m)).find((n) => n.kind === "refund-done")!.message).toBe("The $5.00 membership from Maya Fan was refunded.");
    // The membership itself runs on: a refund is money back, not an end.
    expect((await rowOf(m.membershipId)).status).toBe("active");
  });

  it("a private member is 'A private supporter' to the creator", async () => {
    const { m } = await joined({ private: true });
    expect((await noticesOf(m))[0]!.title).toBe("A private supporter joined Gold at $5.00/month");
  });

  it("refreshMembership converges at once, and the event that follows adds nothing", async () => {
    const { m, subscriptionId, fake, deps, deliver } = await joined();
    const later = fake.setCancelAtPeriodEnd(subscriptionId, true);
    await refreshMembership(db(), subscriptionId, deps);
    expect((await rowOf(m.membershipId)).status).toBe("cancelled");
    await deliver(later);
    expect((await noticesOf(m)).filter((n) => n.kind === "member-cancelled")).toHaveLength(1);
  });

  it("a truth read before the row's last change is left alone", async () => {
    const { m, subscriptionId, fake, deps } = await joined();
    const old = fake.state(subscriptionId);
    fake.setCancelAtPeriodEnd(subscriptionId, true);
    await refreshMembership(db(), subscriptionId, deps);
    const result = await db().transaction((tx) => syncMembership(tx, old, deps, new Date("2026-02-01T00:00:00Z")));
    expect(result).toMatchObject({ stale: true });
    expect((await rowOf(m.membershipId)).status).toBe("cancelled");
  });

  it("mails the member without an account, within the receipts' limit per address", async () => {
    const t = setup();
    const shared = `busy_${Date.now()}@member.example`;
    for (let i = 0; i < 11; i += 1) {
      const m = await seedPendingMembership(db(), { memberEmail: shared });
      await t.deliver(t.fake.join({ membershipId: m.membershipId, checkoutId: m.checkoutId, amount: 500 }).events);
      expect((await rowOf(m.membershipId)).status).toBe("active");
    }
    expect(await db().select().from(emailOutbox).where(and(eq(emailOutbox.to, shared)))).toHaveLength(10);
  });
});
