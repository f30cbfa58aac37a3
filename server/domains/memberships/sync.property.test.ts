import { and, asc, eq, inArray, like, or } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import type { Db } from "#server/platform/db/client";
import { emailOutbox, ledgerEntries, memberships, moneyEvents, notifications, sponsorSessions, user } from "#server/platform/db/schema";
import type { PaymentEvent } from "#server/providers/payments/events";
import { receivePaymentEvent } from "#server/features/payment-webhooks/intake";
import { reconcile } from "#server/features/reconciliation/run";
import type { Difference } from "#server/features/reconciliation/movements";
import { COMMAND_LINE } from "#server/platform/audit/audit-log";
import type { WebhookDeps } from "#server/features/payment-webhooks/types";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { propertyRuns } from "#tests/support/property-runs";
import { events, webhookDeps } from "#tests/support/payments";
import { FakeMembershipBilling, seedPendingMembership, type SeededMembership } from "#tests/support/fake-membership-billing";

/**
 * The writer's property: a membership's life at the provider (join, change tier, renew, fail,
 * recover, give up, cancel, resume, end, and refunds and disputes of its periods), its events
 * delivered duplicated, shuffled and all at once through the real intake, leaves exactly what the
 * same life's events leave delivered once each in order: the membership row, its periods and
 * ledger rows, its money facts, the creator's notifications and every mail. Each delivery reads
 * the provider's truth as it stands at the end of the life, as a late or replayed event does. An
 * event that came before what it needs (a refund before its period) fails and is delivered again,
 * as the provider would. Each paid invoice has exactly one ledger payment row.
 *
 * Reconciliation then runs against the fake provider's balance (each invoice's charge and
 * application fee, each refund and dispute) and finds no difference about the life's periods.
 */
// `npm run test:deep` runs 300 lives per engine; `npm test` a quick 12 with a new seed each run.
const RUNS = propertyRuns({ quick: 12, deep: 300 });

const STEPS = ["renew", "fail", "recover", "giveUp", "cancel", "resume", "changeTier", "endNow", "refund", "dispute"] as const;
type Step = (typeof STEPS)[number];

const scenario = fc.record({
  amount: fc.integer({ min: 300, max: 100_000 }),
  newAmount: fc.integer({ min: 300, max: 100_000 }),
  interval: fc.constantFrom("month" as const, "year" as const),
  // Renewals weigh most, as in a real life; every other step comes up too.
  steps: fc.array(fc.oneof({ arbitrary: fc.constant("renew" as Step), weight: 4 }, { arbitrary: fc.constantFrom(...STEPS), weight: 6 }), { maxLength: 6 }),
  copies: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 30, maxLength: 30 }),
  order: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 90, maxLength: 90 }),
});

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

/** One life, played at a fake provider of its own: the same steps on two fakes make the same truths (same clock, same amounts). */
function live(fake: FakeMembershipBilling, m: SeededMembership, sc: Scenario): { subscriptionId: string; delivered: PaymentEvent[] } {
  const { subscriptionId, events: joined } = fake.join({ membershipId: m.membershipId, checkoutId: m.checkoutId, amount: sc.amount, interval: sc.interval, email: m.memberEmail });
  const delivered = [...joined];
  const touched = new Set<string>();
  const untouchedPayment = () => fake.paidIntents(subscriptionId).filter((pi) => !touched.has(pi)).at(-1);
  const amountOf = (pi: string) => fake.payments.get(pi)!.gross;
  for (const step of sc.steps as Step[]) {
    switch (step) {
      case "renew":
        delivered.push(...fake.renew(subscriptionId));
        break;
      case "fail":
        delivered.push(...fake.renew(subscriptionId, { fail: true }));
        break;
      case "recover":
        delivered.push(...fake.recover(subscriptionId));
        break;
      case "giveUp":
        delivered.push(...fake.giveUp(subscriptionId));
        break;
      case "cancel":
        delivered.push(...fake.setCancelAtPeriodEnd(subscriptionId, true));
        break;
      case "resume":
        delivered.push(...fake.setCancelAtPeriodEnd(subscriptionId, false));
        break;
      case "changeTier":
        delivered.push(...fake.changePrice(subscriptionId, sc.newAmount));
        break;
      case "endNow":
        delivered.push(...fake.endNow(subscriptionId));
        break;
      case "refund":
      case "dispute": {
        const pi = untouchedPayment();
        if (!pi) break;
        touched.add(pi);
        const payment = { sessionId: "", checkoutId: "", paymentIntentId: pi, amount: amountOf(pi), platformFee: 0 };
        delivered.push(step === "refund" ? events.chargeRefunded(payment) : events.disputeChanged(payment));
        if (step === "refund") fake.refund(pi);
        else fake.dispute(pi);
        break;
      }
    }
  }
  return { subscriptionId, delivered };
}

/** Everything the life left, with the ids that differ between two memberships of the same life taken out. */
async function snapshot(db: Db, m: SeededMembership, subscriptionId: string) {
  const strip = (text: string) =>
    text
      .replaceAll(subscriptionId, "SUB")
      .replaceAll(m.membershipId, "MEM")
      .replaceAll(m.memberEmail!, "MEMBER_EMAIL")
      .replace(/\/membership\/[A-Za-z0-9._-]+/g, "/membership/TOKEN")
      .replace(/\/unsubscribe\/[A-Za-z0-9._-]+/g, "/unsubscribe/TOKEN");
  const [row] = await db.select().from(memberships).where(eq(memberships.id, m.membershipId));
  const sessions = await db.select().from(sponsorSessions).where(eq(sponsorSessions.membershipId, m.membershipId)).orderBy(asc(sponsorSessions.created), asc(sponsorSessions.paymentIntentId));
  const sessionIds = sessions.map((s) => s.id);
  const ledger = sessionIds.length > 0 ? await db.select().from(ledgerEntries).where(inArray(ledgerEntries.sessionId, sessionIds)) : [];
  const facts = await db
    .select({ type: moneyEvents.type, key: moneyEvents.key })
    .from(moneyEvents)
    .where(sessionIds.length > 0 ? or(inArray(moneyEvents.sessionId, sessionIds), like(moneyEvents.key, `membership:${m.membershipId}:%`)) : like(moneyEvents.key, `membership:${m.membershipId}:%`));
  const notices = await db.select().from(notifications).where(eq(notifications.uid, m.creatorUid));
  const [creator] = await db.select({ email: user.email }).from(user).where(eq(user.id, m.creatorUid));
  const mails = await db.select().from(emailOutbox).where(inArray(emailOutbox.to, [m.memberEmail!, creator!.email]));
  const { id: _id, tierId: _tier, bioPageId: _page, creatorUid: _creator, memberEmail, providerCheckoutId: _checkout, providerSubscriptionId, providerCustomerId: _customer, destinationAccountId: _account, updatedAt: _updated, created: _created, ...fields } = row!;
  return {
    membership: { ...fields, memberEmailIsTheSeeded: memberEmail === m.memberEmail, subscription: providerSubscriptionId === subscriptionId },
    periods: sessions.map((s) => ({ kind: s.kind, status: s.status, amount: s.amount, platformFee: s.platformFee, supporterName: s.supporterName, private: s.private, created: s.created.toISOString(), pi: strip(s.paymentIntentId!) })),
    ledger: ledger.map((e) => `${e.kind} ${strip(e.providerReference)} ${e.gross} ${e.providerFee} ${e.platformFee} ${e.net}`).sort(),
    facts: facts.map((f) => `${f.type} ${strip(f.key ?? "")}`).sort(),
    notifications: notices.map((n) => strip(`${n.kind} | ${n.title} | ${n.message}`)).sort(),
    mails: mails.map((mail) => `${mail.to === m.memberEmail ? "member" : "creator"} | ${mail.subject} | ${mail.meta.kind} | ${strip(mail.text)}`).sort(),
  };
}

describe.each(ENGINES)("the membership writer's property on %s", (engine) => {
  const database = migratedDatabase(engine);
  const counts = { runs: 0, deliveries: 0, redeliveries: 0, periods: 0, facts: 0 };
  afterAll(() => {
    console.log(`[memberships property, ${engine}] lives=${counts.runs} deliveries=${counts.deliveries} redeliveries=${counts.redeliveries} periods=${counts.periods} facts=${counts.facts}`);
  });

  it(`${RUNS} random membership lives end the same whatever the order, copies and concurrency of their events`, { timeout: 30 * 60_000 }, async () => {
    const db = database.db;
    const deliverAll = async (deps: WebhookDeps, batch: PaymentEvent[], together: boolean) => {
      let pending = batch;
      for (let round = 0; pending.length > 0; round += 1) {
        if (round > 20) throw new Error("events still unhandled after 20 rounds of retries");
        if (round > 0) counts.redeliveries += pending.length;
        counts.deliveries += pending.length;
        const results = together
          ? await Promise.all(pending.map(async (event) => ({ event, result: await receivePaymentEvent(db, event, deps) })))
          : await pending.reduce<Promise<{ event: PaymentEvent; result: Awaited<ReturnType<typeof receivePaymentEvent>> }[]>>(
              async (done, event) => [...(await done), { event, result: await receivePaymentEvent(db, event, deps) }],
              Promise.resolve([]),
            );
        pending = results.filter((r) => r.result.kind === "ERROR").map((r) => r.event);
      }
    };

    await fc.assert(
      fc.asyncProperty(scenario, async (sc) => {
        counts.runs += 1;
        // The same life twice, each at a fake of its own: once delivered in order, once in a storm.
        const inOrder = { fake: new FakeMembershipBilling(), m: await seedPendingMembership(db, { amount: sc.amount }) };
        const stormy = { fake: new FakeMembershipBilling(), m: await seedPendingMembership(db, { amount: sc.amount }) };
        const a = live(inOrder.fake, inOrder.m, sc);
        const b = live(stormy.fake, stormy.m, sc);

        await deliverAll(webhookDeps(db, inOrder.fake.provider), a.delivered, false);
        const storm = b.delivered.flatMap((event, i) => Array.from({ length: sc.copies[i % sc.copies.length]! }, () => event));
        const shuffled = storm
          .map((event, i) => ({ event, key: sc.order[i % sc.order.length]! + i * 1e-9 }))
          .sort((x, y) => x.key - y.key)
          .map((d) => d.event);
        await deliverAll(webhookDeps(db, stormy.fake.provider), shuffled, true);

        const expected = await snapshot(db, inOrder.m, a.subscriptionId);
        const actual = await snapshot(db, stormy.m, b.subscriptionId);
        expect(actual).toEqual(expected);

        // Each paid invoice is one period with one ledger payment row, and there is no other.
        const paid = stormy.fake.paidIntents(b.subscriptionId);
        const payments = await db
          .select({ reference: ledgerEntries.providerReference })
          .from(ledgerEntries)
          .innerJoin(sponsorSessions, eq(sponsorSessions.id, ledgerEntries.sessionId))
          .where(and(eq(sponsorSessions.membershipId, stormy.m.membershipId), eq(ledgerEntries.kind, "payment")));
        expect(payments.map((p) => p.reference).sort()).toEqual([...paid].sort());
        counts.periods += paid.length;

        // Reconciliation of the day finds nothing about these periods (other lives' rows, in the same window, are not this fake's).
        const sessionIds = new Set((await db.select({ id: sponsorSessions.id }).from(sponsorSessions).where(eq(sponsorSessions.membershipId, stormy.m.membershipId))).map((s) => s.id));
        const reconciled = await reconcile(db, stormy.fake.provider, { period: { from: new Date(Date.now() - 86_400_000), to: new Date(Date.now() + 60_000) }, actor: COMMAND_LINE, slackMs: 0 });
        if (reconciled.kind !== "SUCCESS") throw new Error(reconciled.message);
        expect((reconciled.run.differences as Difference[]).filter((d) => (d.sessionId && sessionIds.has(d.sessionId)) || paid.includes(d.reference))).toEqual([]);
        expect(reconciled.run.movementsCompared).toBeGreaterThanOrEqual(paid.length);
        counts.facts += actual.facts.length;
      }),
      { numRuns: RUNS, endOnFailure: true },
    );
  });
});
