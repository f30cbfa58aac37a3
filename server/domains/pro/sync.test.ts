import { and, eq, like } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { billingCustomers, notifications, proMemberships, user } from "#server/platform/db/schema";
import type { ProviderProState, ProviderSubscription } from "#server/providers/payments/port";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { getProStatus } from "./pro-status";
import { notificationsFor, classify, membershipFromProvider, syncProMembership, type MembershipClass } from "./sync";
import { notificationDeps } from "#tests/support/payments";

const NOW = new Date("2026-11-22T12:00:00Z");
const LATER = new Date("2026-12-22T12:00:00Z");
const EARLIER = new Date("2026-10-22T12:00:00Z");
const CUSTOMER = "cus_test";

const sub = (over: Partial<ProviderSubscription>): ProviderSubscription => ({
  subscriptionId: "sub_1",
  plan: "launchpad",
  status: "active",
  currentPeriodEnd: LATER,
  cancelAtPeriodEnd: false,
  created: EARLIER,
  ...over,
});
const state = (subscriptions: ProviderSubscription[], lifetime = false): ProviderProState => ({
  customerId: CUSTOMER,
  subscriptions,
  lifetimePurchase: lifetime ? { paymentIntentId: "pi_1", paidAt: EARLIER } : null,
});

/** The states a customer passes through, by name. */
const STATES = {
  nothing: state([]),
  active: state([sub({})]),
  renewed: state([sub({ currentPeriodEnd: new Date(LATER.getTime() + 30 * 86400_000) })]),
  cancelling: state([sub({ cancelAtPeriodEnd: true })]),
  pastDue: state([sub({ status: "past_due" })]),
  ended: state([sub({ status: "canceled" })]),
  starPower: state([sub({ plan: "star_power" })]),
  limitless: state([], true),
  limitlessAndEnded: state([sub({ status: "canceled" })], true),
  // Limitless bought by a subscriber: the subscription still bills until its period's end.
  limitlessAndBilling: state([sub({})], true),
  limitlessAndEnding: state([sub({ cancelAtPeriodEnd: true })], true),
} satisfies Record<string, ProviderProState>;
type StateName = keyof typeof STATES;
const NAMES = Object.keys(STATES) as StateName[];

/** A state's class: with no purchase at all the stored row (if any) is marked canceled, which is "none" too. */
const classOf = (name: StateName): MembershipClass => classify(membershipFromProvider(STATES[name]));

describe("sync's pure rules", () => {
  it("decides one alert per change of class, and none without one", () => {
    // Limitless ("lifetime") is welcomed as a first plan is, even when a subscription came before it.
    const table: Record<MembershipClass, Record<MembershipClass, string[]>> = {
      none: { none: [], pro: ["pro-started"], renewal_failed: ["pro-started", "pro-renewal-failed"], lifetime: ["pro-started"] },
      pro: { none: ["pro-ended"], pro: [], renewal_failed: ["pro-renewal-failed"], lifetime: ["pro-started"] },
      renewal_failed: { none: ["pro-ended"], pro: [], renewal_failed: [], lifetime: ["pro-started"] },
      lifetime: { none: ["pro-ended"], pro: [], renewal_failed: ["pro-renewal-failed"], lifetime: [] },
    };
    for (const [before, row] of Object.entries(table)) {
      for (const [after, expected] of Object.entries(row)) {
        expect(notificationsFor(before as MembershipClass, after as MembershipClass), `${before} → ${after}`).toEqual(expected);
      }
    }
  });

  it("picks Limitless over any subscription, a running subscription over an ended one, and the longest running one", () => {
    expect(membershipFromProvider(STATES.limitlessAndEnded)).toMatchObject({ plan: "limitless", status: "active", currentPeriodEnd: null, billingPlan: null });
    // A subscription still running beside Limitless is carried, so the Pro screens can say it still bills.
    expect(membershipFromProvider(STATES.limitlessAndBilling)).toMatchObject({ plan: "limitless", billingPlan: "launchpad", currentPeriodEnd: LATER, cancelAtPeriodEnd: false });
    const mixed = state([sub({ subscriptionId: "old", status: "canceled", currentPeriodEnd: new Date(LATER.getTime() + 1) }), sub({ subscriptionId: "new", plan: "star_power" })]);
    expect(membershipFromProvider(mixed)).toMatchObject({ providerSubscriptionId: "new", plan: "star_power" });
    expect(membershipFromProvider(STATES.nothing)).toBeNull();
    expect(membershipFromProvider(state([sub({ plan: null })]))).toBeNull();
    expect(membershipFromProvider(state([sub({ status: "incomplete_expired" })]))).toMatchObject({ status: "canceled" });
  });
});

describe.each(ENGINES)("syncProMembership on %s", (engine) => {
  const database = migratedDatabase(engine);
  const db = () => database.db;

  const newPerson = async () => {
    const uid = `sync_${crypto.randomUUID()}`;
    await db().insert(user).values({ id: uid, name: "Sync Person", email: `${uid}@sync.example`, emailVerified: true });
    // The row sync locks, so that two syncs of one person take turns.
    await db().insert(billingCustomers).values({ uid, provider: "sandbox", customerId: `cus_${uid}` });
    return uid;
  };
  // Each person's subscription ids are their own, as at the provider.
  const ownState = (uid: string, name: StateName): ProviderProState => ({
    ...STATES[name],
    subscriptions: STATES[name].subscriptions.map((s) => ({ ...s, subscriptionId: `${s.subscriptionId}_${uid}` })),
  });
  const sync = (uid: string, name: StateName) => db().transaction((tx) => syncProMembership(tx, uid, ownState(uid, name), NOW, notificationDeps(db())));
  const notificationRows = async (uid: string) =>
    (await db().select({ kind: notifications.kind }).from(notifications).where(and(eq(notifications.uid, uid), like(notifications.kind, "pro-%")))).map((a) => a.kind).sort();
  const row = async (uid: string) => (await db().select().from(proMemberships).where(eq(proMemberships.uid, uid)))[0] ?? null;
  const shape = (r: Awaited<ReturnType<typeof row>>) =>
    r && { plan: r.plan, status: r.status, currentPeriodEnd: r.currentPeriodEnd?.toISOString() ?? null, providerSubscriptionId: r.providerSubscriptionId, cancelAtPeriodEnd: r.cancelAtPeriodEnd };

  it("every pair of states: the row is the second's, the alerts are the transitions', and a replay adds nothing", async () => {
    for (const first of NAMES) {
      for (const second of NAMES) {
        const uid = await newPerson();
        await sync(uid, first);
        await sync(uid, second);
        const afterTwo = { row: shape(await row(uid)), notifications: await notificationRows(uid) };
        await sync(uid, second);
        await sync(uid, second);
        expect({ row: shape(await row(uid)), notifications: await notificationRows(uid) }, `${first} → ${second}, replayed`).toEqual(afterTwo);
        const expected = [...notificationsFor("none", classOf(first)), ...notificationsFor(classOf(first), classOf(second))].sort();
        expect(afterTwo.notifications, `${first} → ${second}`).toEqual(expected);
        const wanted = membershipFromProvider(STATES[second]);
        if (wanted) expect(afterTwo.row, `${first} → ${second}`).toMatchObject({ plan: wanted.plan, status: wanted.status, cancelAtPeriodEnd: wanted.cancelAtPeriodEnd });
        else if (membershipFromProvider(STATES[first])) expect(afterTwo.row?.status, `${first} → ${second}`).toBe("canceled");
        else expect(afterTwo.row).toBeNull();
      }
    }
  }, 120_000);

  it("any order and any duplicates of deliveries: the row follows the last state read, one alert per change of class", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 8 }), fc.array(fc.nat(3), { minLength: 8, maxLength: 8 }), async (seen, repeats) => {
        const uid = await newPerson();
        // Each delivery reads the provider's state at its time; a duplicate delivery reads the same state again.
        let expected: string[] = [];
        let current: MembershipClass = "none";
        for (const [i, name] of seen.entries()) {
          for (let k = 0; k <= repeats[i]!; k++) await sync(uid, name);
          const next = classOf(name);
          expected = [...expected, ...notificationsFor(current, next)];
          current = next;
        }
        expect(await notificationRows(uid)).toEqual(expected.sort());
        const last = membershipFromProvider(STATES[seen.at(-1)!]);
        const stored = await row(uid);
        if (last) expect(shape(stored)).toMatchObject({ plan: last.plan, status: last.status, providerSubscriptionId: last.providerSubscriptionId && `${last.providerSubscriptionId}_${uid}` });
        expect(classify(stored as never)).toBe(current);
      }),
      { numRuns: 30 },
    );
  }, 120_000);

  it("concurrent syncs of one person write one row and one 'pro-started'", async () => {
    const uid = await newPerson();
    const results = await Promise.all([sync(uid, "active"), sync(uid, "active"), sync(uid, "active")]);
    expect(results.flatMap((r) => r.notifications)).toEqual(["pro-started"]);
    expect(await notificationRows(uid)).toEqual(["pro-started"]);
  });

  it("a cancelled subscription is Pro until its period ends; past the end it is not, even with no event; Limitless never ends", async () => {
    const uid = await newPerson();
    await sync(uid, "cancelling");
    expect(await getProStatus(db(), uid, NOW)).toMatchObject({ isPro: true, cancelAtPeriodEnd: true, currentPeriodEnd: LATER });
    expect((await getProStatus(db(), uid, new Date(LATER.getTime() - 1))).isPro).toBe(true);
    expect((await getProStatus(db(), uid, LATER)).isPro).toBe(false);
    await sync(uid, "pastDue");
    expect(await getProStatus(db(), uid, NOW)).toMatchObject({ isPro: true, renewalFailed: true });
    expect(await getProStatus(db(), uid, LATER)).toMatchObject({ isPro: false, renewalFailed: false });
    await sync(uid, "limitless");
    expect(await getProStatus(db(), uid, new Date("2099-01-01T00:00:00Z"))).toMatchObject({ isPro: true, plan: "limitless", currentPeriodEnd: null });
  });

  it("Limitless bought by a subscriber: welcomed with its own alert, and the subscription still billing is part of the status until it ends", async () => {
    const uid = await newPerson();
    await sync(uid, "active");
    await sync(uid, "limitlessAndBilling");
    expect(await notificationRows(uid)).toEqual(["pro-started", "pro-started"]);
    const messages = (await db().select().from(notifications).where(eq(notifications.uid, uid))).map((n) => n.message);
    expect(messages).toEqual(expect.arrayContaining([expect.stringMatching(/Launchpad plan is active/), expect.stringMatching(/Limitless plan is active/)]));
    expect(await getProStatus(db(), uid, NOW)).toMatchObject({ isPro: true, plan: "limitless", stillBilling: { plan: "launchpad", periodEnd: LATER, renews: true } });
    await sync(uid, "limitlessAndEnding");
    expect((await getProStatus(db(), uid, NOW)).stillBilling).toEqual({ plan: "launchpad", periodEnd: LATER, renews: false });
    // Past the period's end the subscription bills no more: nothing is said, Limitless goes on.
    expect(await getProStatus(db(), uid, LATER)).toMatchObject({ isPro: true, plan: "limitless", stillBilling: null });
    await sync(uid, "limitlessAndEnded");
    expect(await notificationRows(uid)).toEqual(["pro-started", "pro-started"]);
  });
});
