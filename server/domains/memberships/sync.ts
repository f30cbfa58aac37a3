import { eq } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { memberships, moneyEvents, type MembershipStatus } from "#server/platform/db/schema";
import type { ProviderMembershipState } from "#server/providers/payments/port";
import { moneyEventKey, type MembershipEndReason, type MoneyEvent } from "#server/domains/payments/ledger/money-events";
import { recordMoneyFact } from "#server/domains/payments/ledger/record-money-fact";
import type { WebhookDeps } from "#server/domains/payments/notices/notice-deps";
import { composeMemberMail } from "#server/domains/memberships/membership-notices";
import { paidInvoices, readUnrecordedPayments, recordPaidPeriods, type PaidDetails } from "#server/domains/memberships/paid-periods";

type Membership = typeof memberships.$inferSelect;

/** The row's fields the provider's truth decides. */
export type MembershipFromProvider = Pick<
  Membership,
  "status" | "amount" | "currency" | "interval" | "currentPeriodEnd" | "cancelAtPeriodEnd" | "providerSubscriptionId" | "providerCustomerId" | "startedAt" | "endedAt" | "memberEmail"
>;

const FAILED_INVOICE: ReadonlySet<string> = new Set(["open", "uncollectible"]);

/**
 * Our status from the provider's: running is active, past due (a renewal failed and is retried),
 * or cancelled (it ends when the period runs out); canceled is ended; a subscription whose first
 * payment is not made yet is pending, and expired once that lapses. A subscription never paid is
 * never ended: there was no member.
 */
export function statusFromProvider(state: Pick<ProviderMembershipState, "status" | "cancelAtPeriodEnd" | "invoices">): MembershipStatus {
  const everPaid = paidInvoices(state).length > 0;
  switch (state.status) {
    case "active":
    case "trialing":
      return state.cancelAtPeriodEnd ? "cancelled" : "active";
    case "past_due":
    case "unpaid":
    case "paused":
      return state.cancelAtPeriodEnd ? "cancelled" : "past_due";
    case "incomplete":
      return "pending";
    case "incomplete_expired":
      return everPaid ? "ended" : "expired";
    case "canceled":
      return "ended";
  }
}

/** The row as the provider's truth calls for, keeping what only we know (the first start, an address we had). */
export function membershipFromProvider(current: Pick<Membership, "startedAt" | "endedAt" | "memberEmail">, state: ProviderMembershipState, now: Date): MembershipFromProvider {
  const status = statusFromProvider(state);
  const firstPaid = paidInvoices(state)[0];
  const over = status === "ended" || status === "expired";
  return {
    status,
    amount: state.amount,
    currency: state.currency,
    interval: state.interval,
    currentPeriodEnd: state.currentPeriodEnd,
    // Only a running membership is "cancelling"; an ended one simply ended.
    cancelAtPeriodEnd: status === "cancelled",
    providerSubscriptionId: state.subscriptionId,
    providerCustomerId: state.customerId,
    startedAt: current.startedAt ?? (firstPaid ? (firstPaid.paidAt ?? firstPaid.periodStart) : null),
    endedAt: status === "ended" ? (state.endedAt ?? current.endedAt ?? now) : over ? current.endedAt : null,
    memberEmail: current.memberEmail ?? state.customerEmail,
  };
}

/** Why an ended membership ended, from its truth: its last invoice unpaid, a cancel that ran out, or ended at once. */
export function endReason(state: Pick<ProviderMembershipState, "cancelAtPeriodEnd" | "invoices">): MembershipEndReason {
  const last = state.invoices.at(-1);
  if (last && FAILED_INVOICE.has(last.status) && last.reason !== "subscription_create") return "payment_failed";
  return state.cancelAtPeriodEnd ? "cancelled" : "ended_now";
}

const sameTime = (a: Date | null, b: Date | null) => (a?.getTime() ?? null) === (b?.getTime() ?? null);

function unchanged(current: Membership, next: MembershipFromProvider): boolean {
  return (
    current.status === next.status &&
    current.amount === next.amount &&
    current.currency === next.currency &&
    current.interval === next.interval &&
    sameTime(current.currentPeriodEnd, next.currentPeriodEnd) &&
    current.cancelAtPeriodEnd === next.cancelAtPeriodEnd &&
    current.providerSubscriptionId === next.providerSubscriptionId &&
    current.providerCustomerId === next.providerCustomerId &&
    sameTime(current.startedAt, next.startedAt) &&
    sameTime(current.endedAt, next.endedAt) &&
    current.memberEmail === next.memberEmail
  );
}

/**
 * The membership row the truth is about, locked until the transaction ends: two syncs of one
 * membership (concurrent events, an event and a member's click) take turns, each seeing what the
 * other wrote. By our id (the subscription's metadata), else by the subscription; a row that another
 * subscription already owns is not this one's.
 */
async function lockMembership(tx: Db, state: ProviderMembershipState): Promise<Membership | null> {
  if (state.membershipId) {
    const [row] = await tx.select().from(memberships).where(eq(memberships.id, state.membershipId)).for("update");
    if (row) return row.providerSubscriptionId === null || row.providerSubscriptionId === state.subscriptionId ? row : null;
  }
  const [bySubscription] = await tx.select().from(memberships).where(eq(memberships.providerSubscriptionId, state.subscriptionId)).for("update");
  return bySubscription ?? null;
}

export type MembershipSyncResult = {
  membershipId: string;
  before: MembershipStatus;
  after: MembershipStatus;
  /** The money facts recorded now (their keys): what people were told by this sync. */
  told: string[];
  /** Paid invoices' payment intents whose details were not read: not recorded yet, so the caller tries again. */
  missingPayments: string[];
  /** The truth was read before the row's last write: nothing was changed (a fresher sync already converged it). */
  stale: boolean;
};

/**
 * THE one writer of a membership (ADR 0084): converges our row on the provider's truth, read
 * fresh by the caller outside the transaction at `now`, records each paid invoice as a period
 * (paid-periods.ts), and records each fact once (money-events.ts), whose fan-out mails the member,
 * tells the creator and queues the webhook, all in the caller's transaction. The facts follow the
 * truth (its invoices, its period end), never the event, so order, duplicates and replays change
 * nothing more. A truth read before the row's last change may be older than what the row holds: it
 * is left alone (`stale`), and the webhook handler has its event delivered again to read it afresh.
 * Null when the subscription is not one of our memberships.
 *
 * `paid`: the real fees of the paid periods not recorded yet (readUnrecordedPayments).
 */
export async function syncMembership(tx: Db, state: ProviderMembershipState, deps: WebhookDeps, now: Date, paid: PaidDetails = new Map()): Promise<MembershipSyncResult | null> {
  const current = await lockMembership(tx, state);
  if (!current) {
    deps.logger?.warn({ subscriptionId: state.subscriptionId, membershipId: state.membershipId }, "membership subscription that is not one of ours; ignored");
    return null;
  }
  const result = { membershipId: current.id, before: current.status, after: current.status, told: [] as string[], missingPayments: [] as string[], stale: false };
  if (current.updatedAt.getTime() > now.getTime() && current.providerSubscriptionId !== null) {
    return { ...result, stale: true };
  }
  const next = membershipFromProvider(current, state, now);
  const membership: Membership = unchanged(current, next) ? current : { ...current, ...next, updatedAt: now };
  if (membership !== current) await tx.update(memberships).set({ ...next, updatedAt: now }).where(eq(memberships.id, current.id));
  result.after = membership.status;

  const { periods, missing } = await recordPaidPeriods(tx, membership, state, paid, deps, now);
  result.missingPayments = missing;

  const facts: { fact: MoneyEvent; at: Date }[] = [];
  const [first] = paidInvoices(state);
  for (const { invoice, sessionId } of periods) {
    const type = invoice.invoiceId === first?.invoiceId ? "membership.created" : "membership.renewed";
    facts.push({ fact: { type, membershipId: membership.id, sessionId, invoiceId: invoice.invoiceId, amount: invoice.amount, currency: invoice.currency }, at: invoice.paidAt ?? now });
  }
  if (first) {
    // A renewal that failed (the first invoice failing is a checkout not paid, not a member's renewal).
    for (const invoice of state.invoices) {
      if (FAILED_INVOICE.has(invoice.status) && invoice.reason !== "subscription_create") {
        facts.push({ fact: { type: "membership.payment_failed", membershipId: membership.id, invoiceId: invoice.invoiceId, amount: invoice.amount, currency: invoice.currency }, at: now });
      }
    }
    if (membership.status === "cancelled" && membership.currentPeriodEnd) {
      facts.push({ fact: { type: "membership.cancelled", membershipId: membership.id, periodEnd: membership.currentPeriodEnd.toISOString() }, at: now });
    }
    if (membership.status === "ended") facts.push({ fact: { type: "membership.ended", membershipId: membership.id, reason: endReason(state) }, at: now });
  }
  for (const { fact, at } of facts) {
    if (await tell(tx, fact, deps, at, now)) result.told.push(moneyEventKey(fact)!);
  }
  return result;
}

/**
 * Records one fact unless it is recorded already (its key), the member's mail rendered first. The
 * membership's row lock is held, so no other sync records it meanwhile.
 */
async function tell(tx: Db, fact: MoneyEvent, deps: WebhookDeps, at: Date, now: Date): Promise<boolean> {
  const key = moneyEventKey(fact)!;
  const [known] = await tx.select({ id: moneyEvents.id }).from(moneyEvents).where(eq(moneyEvents.key, key));
  if (known) return false;
  const mail = fact.type === "membership.cancelled" || !fact.type.startsWith("membership.") ? null : await composeMemberMail(tx, fact as Parameters<typeof composeMemberMail>[1], deps, at);
  return recordMoneyFact(tx, fact, deps, { now, prepared: mail ? [mail] : [] });
}

/**
 * Reads the provider's truth about a subscription and converges its membership on it in one
 * transaction: called right after a provider call (a member cancelled, changed tier), so the screen
 * shows the change without waiting for the provider's event. Paid periods whose details could not be
 * read wait for that event.
 */
export async function refreshMembership(db: Db, subscriptionId: string, deps: WebhookDeps): Promise<void> {
  const readAt = new Date();
  const state = await deps.provider.readMembershipState(subscriptionId);
  const paid = await readUnrecordedPayments(db, state, deps.provider);
  const result = await db.transaction((tx) => syncMembership(tx, state, deps, readAt, paid));
  if (result?.missingPayments.length) deps.logger?.info({ subscriptionId, missing: result.missingPayments }, "membership periods left for the provider's event");
}
