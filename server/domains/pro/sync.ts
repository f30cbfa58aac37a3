import { and, eq, inArray, isNull } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { billingCustomers, proCheckouts, proMemberships } from "#server/platform/db/schema";
import type { ProviderProState, ProviderSubscription } from "#server/providers/payments/port";
import type { NotificationDeps } from "#server/domains/notifications/send";
import { recordMoneyFact } from "#server/domains/payments/ledger/record-money-fact";
import type { ProPlanKey } from "#isomorphic/pro-plans";
import { toPublicMembership } from "./public-membership";

/** What pro_memberships holds for a person, as the provider's truth says it should. */
export type MembershipRecord = {
  plan: ProPlanKey;
  status: "active" | "trialing" | "past_due" | "canceled" | "incomplete" | "unpaid";
  currentPeriodEnd: Date | null;
  providerSubscriptionId: string | null;
  cancelAtPeriodEnd: boolean;
  /** Limitless only: the plan of a subscription still billing beside it (its end and flag are the fields above). */
  billingPlan: "launchpad" | "star_power" | null;
};

/**
 * Where a record stands, for notifications: the clock is left out, so replays decide
 * the same thing whenever they run. Limitless is a class of its own, so that
 * a subscriber buying it is welcomed as a first plan is.
 */
export type MembershipClass = "none" | "pro" | "renewal_failed" | "lifetime";

const RUNNING: ReadonlySet<string> = new Set(["active", "trialing", "past_due"]);

function ourStatus(status: ProviderSubscription["status"]): MembershipRecord["status"] {
  if (status === "incomplete_expired") return "canceled";
  if (status === "paused") return "unpaid";
  return status;
}

/**
 * The record the provider's state calls for (DESIGN §5a, Documenso's
 * syncStripeCustomerSubscription): a paid Limitless purchase wins (it never
 * ends), carrying any subscription still running beside it so every Pro
 * screen can say it still bills; else the running subscription of ours that
 * runs longest; else the latest ended one (kept, so "Pro ended" has
 * something to say); else none.
 */
export function membershipFromProvider(state: ProviderProState): MembershipRecord | null {
  const ours = state.subscriptions.filter((s): s is ProviderSubscription & { plan: "launchpad" | "star_power" } => s.plan !== null && s.plan !== "limitless");
  const byEnd = [...ours].sort((a, b) => b.currentPeriodEnd.getTime() - a.currentPeriodEnd.getTime());
  const running = byEnd.find((s) => RUNNING.has(s.status));
  if (state.lifetimePurchase) {
    return {
      plan: "limitless",
      status: "active",
      currentPeriodEnd: running?.currentPeriodEnd ?? null,
      providerSubscriptionId: running?.subscriptionId ?? null,
      cancelAtPeriodEnd: running?.cancelAtPeriodEnd ?? false,
      billingPlan: running?.plan ?? null,
    };
  }
  const chosen = running ?? byEnd[0];
  if (!chosen) return null;
  return {
    plan: chosen.plan,
    status: ourStatus(chosen.status),
    currentPeriodEnd: chosen.currentPeriodEnd,
    providerSubscriptionId: chosen.subscriptionId,
    cancelAtPeriodEnd: chosen.cancelAtPeriodEnd,
    billingPlan: null,
  };
}

export function classify(record: Pick<MembershipRecord, "plan" | "status"> | null | undefined): MembershipClass {
  if (!record) return "none";
  if (record.plan === "limitless") return record.status === "active" ? "lifetime" : "none";
  if (record.status === "past_due") return "renewal_failed";
  return record.status === "active" || record.status === "trialing" ? "pro" : "none";
}

type NotificationKind = "pro-started" | "pro-renewal-failed" | "pro-ended";

/** The money fact each change of class records (server/domains/payments/ledger/money-events.ts). */
const FACT_OF = { "pro-started": "pro.started", "pro-renewal-failed": "pro.renewal_failed", "pro-ended": "pro.ended" } as const satisfies Record<NotificationKind, string>;

/**
 * The notifications a change of class calls for: one per transition, none when
 * nothing changed. Buying Limitless is welcomed (with its mail) whether or
 * not a subscription came before it.
 */
export function notificationsFor(before: MembershipClass, after: MembershipClass): NotificationKind[] {
  if (before === after) return [];
  if (before === "none") return after === "renewal_failed" ? ["pro-started", "pro-renewal-failed"] : ["pro-started"];
  if (after === "none") return ["pro-ended"];
  if (after === "lifetime") return ["pro-started"];
  return after === "renewal_failed" ? ["pro-renewal-failed"] : [];
}

export type SyncResult = { uid: string; before: MembershipClass; after: MembershipClass; notifications: NotificationKind[] };

/**
 * THE one writer of pro_memberships: converges the person's row on the
 * provider's truth (read fresh by the caller, outside the transaction) and
 * records a money fact for each change of class (its notification, its webhook), in the caller's transaction.
 * The notification follows the stored row's change, never the event, so replays,
 * duplicates and events in any order write the same row and no notification twice.
 * The person's billing_customers row is locked first: two syncs of one
 * person take turns. Used by the webhook handler and by refreshProMembership.
 */
export async function syncProMembership(tx: Db, uid: string, state: ProviderProState, now: Date, deps: NotificationDeps): Promise<SyncResult> {
  await tx.select({ uid: billingCustomers.uid }).from(billingCustomers).where(eq(billingCustomers.uid, uid)).for("update");
  const [current] = await tx.select().from(proMemberships).where(eq(proMemberships.uid, uid)).for("update");
  const wanted = membershipFromProvider(state);
  const next: MembershipRecord | null = wanted ?? (current ? { ...current, status: "canceled", cancelAtPeriodEnd: false } as MembershipRecord : null);
  const before = classify(current as MembershipRecord | undefined);
  const after = classify(next);
  if (next) {
    const values = { ...next, providerCustomerId: state.customerId, updatedAt: now };
    const unchanged =
      current &&
      current.plan === next.plan &&
      current.status === next.status &&
      (current.currentPeriodEnd?.getTime() ?? null) === (next.currentPeriodEnd?.getTime() ?? null) &&
      current.providerSubscriptionId === next.providerSubscriptionId &&
      current.cancelAtPeriodEnd === next.cancelAtPeriodEnd &&
      current.billingPlan === next.billingPlan &&
      current.providerCustomerId === state.customerId;
    if (!current) await tx.insert(proMemberships).values({ uid, ...values, created: now });
    else if (!unchanged) await tx.update(proMemberships).set(values).where(eq(proMemberships.uid, uid));
  }
  await settleCheckouts(tx, uid, next && after !== "none" ? next.plan : null, now);
  const notifications = notificationsFor(before, after);
  for (const kind of notifications) {
    // The notification and the pro.started / pro.ended webhook: the fan-out's rows for these facts.
    await recordMoneyFact(tx, { type: FACT_OF[kind], uid, plan: next!.plan, membership: toPublicMembership(next!) }, deps, { now });
  }
  return { uid, before, after, notifications };
}

/**
 * The person's open checkouts that their plan now covers are settled: paid,
 * or no longer for sale to them (a subscriber is sold only Limitless; a
 * Limitless member nothing). A settled checkout is neither reused by the next
 * click nor waited for by the Pro page's refresh (refresh.ts).
 */
async function settleCheckouts(tx: Db, uid: string, plan: ProPlanKey | null, now: Date): Promise<void> {
  if (!plan) return;
  const covered: ProPlanKey[] = plan === "limitless" ? ["launchpad", "star_power", "limitless"] : ["launchpad", "star_power"];
  await tx
    .update(proCheckouts)
    .set({ settledAt: now })
    .where(and(eq(proCheckouts.uid, uid), isNull(proCheckouts.settledAt), inArray(proCheckouts.plan, covered)));
}
