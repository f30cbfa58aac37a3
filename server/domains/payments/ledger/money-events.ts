import type { DisputeStatus } from "#server/platform/db/schema";
import type { ProPlanKey } from "#isomorphic/pro-plans";
import type { PublicMembership } from "#server/domains/pro/public-membership";

/**
 * The money facts people are told about, one type each (ADR 0064). A writer records one with
 * recordMoneyFact (record-money-fact.ts) in the transaction that wrote its ledger rows or its
 * state; the fan-out table (server/domains/payments/notices/fan-out.ts) says who hears of it.
 * Each payload is what the fan-out needs and the money_events row keeps: ids, amounts, statuses —
 * never an address or a name, which the fan-out reads where they live.
 */
type Payloads = {
  /** A sponsor's payment is in the ledger (tip or sponsorship). */
  "payment.settled": { sessionId: string; paymentIntentId: string; gross: number; currency: string };
  /** The payment went back whole: `amount` is what was refunded, at most the payment. */
  "payment.refunded": { sessionId: string; paymentIntentId: string; amount: number; currency: string };
  /** A dispute first heard of while still open. */
  "dispute.opened": { sessionId: string; disputeId: string; status: DisputeStatus };
  /** An open dispute moved on (under review) without closing. */
  "dispute.changed": { sessionId: string; disputeId: string; status: DisputeStatus };
  /** The bank decided: won or lost (also when the first report already said so). */
  "dispute.closed": { sessionId: string; disputeId: string; status: DisputeStatus };
  /** The person became Pro (a first plan, or Limitless bought). */
  "pro.started": { uid: string; plan: ProPlanKey; membership: PublicMembership };
  /** A renewal failed; still Pro while the provider retries. */
  "pro.renewal_failed": { uid: string; plan: ProPlanKey; membership: PublicMembership };
  /** The person is no longer Pro. */
  "pro.ended": { uid: string; plan: ProPlanKey; membership: PublicMembership };
  /** The creator's payout account can take charges: sponsors can pay them. */
  "payouts.enabled": { uid: string };
  /** A membership's first period was paid (server/domains/memberships/sync.ts): `sessionId` is that period's payment. */
  "membership.created": { membershipId: string; sessionId: string; invoiceId: string; amount: number; currency: string };
  /** A later period was paid: a renewal (or the first payment after a change), `sessionId` its payment. */
  "membership.renewed": { membershipId: string; sessionId: string; invoiceId: string; amount: number; currency: string };
  /** A renewal's payment failed; the provider retries, and the member is still a member meanwhile. */
  "membership.payment_failed": { membershipId: string; invoiceId: string; amount: number; currency: string };
  /** Set to end when the period runs out (`periodEnd`, ISO 8601); still a member until then. */
  "membership.cancelled": { membershipId: string; periodEnd: string };
  /** Over: the period ran out after a cancel, the renewal's retries gave up, or it was ended at once. */
  "membership.ended": { membershipId: string; reason: MembershipEndReason };
};

/** Why a membership ended, as its mail and notification say it. */
export type MembershipEndReason = "cancelled" | "payment_failed" | "ended_now";

/** Every type, at run time too: the fan-out's test walks it. */
export const MONEY_EVENT_TYPES = [
  "payment.settled",
  "payment.refunded",
  "dispute.opened",
  "dispute.changed",
  "dispute.closed",
  "pro.started",
  "pro.renewal_failed",
  "pro.ended",
  "payouts.enabled",
  "membership.created",
  "membership.renewed",
  "membership.payment_failed",
  "membership.cancelled",
  "membership.ended",
] as const satisfies readonly (keyof Payloads)[];

export type MoneyEventType = (typeof MONEY_EVENT_TYPES)[number];

// A type added to Payloads and not to the list above fails here.
const everyTypeListed: [Exclude<keyof Payloads, MoneyEventType>] extends [never] ? true : false = true;
void everyTypeListed;

export type MoneyEventOf<T extends MoneyEventType> = { type: T } & Payloads[T];
export type MoneyEvent = { [T in MoneyEventType]: MoneyEventOf<T> }[MoneyEventType];

/**
 * The name a fact is recorded under once (money_events.key): a second report of the same
 * movement (another provider event, a redelivery) finds it and tells nobody again. A dispute's
 * status only moves forward, so each status of it is one fact. A membership's facts are named by
 * what they are about in the provider's truth (an invoice, a period's end), so however often and in
 * whatever order its events are handled, each is told once. Pro changes and payouts enabled
 * may happen again later: their writers tell each change once under their own row lock.
 */
export function moneyEventKey(event: MoneyEvent): string | null {
  switch (event.type) {
    case "payment.settled":
      return `payment:${event.paymentIntentId}`;
    case "payment.refunded":
      return `refund:${event.paymentIntentId}`;
    case "dispute.opened":
    case "dispute.changed":
    case "dispute.closed":
      return `dispute:${event.disputeId}:${event.status}`;
    case "pro.started":
    case "pro.renewal_failed":
    case "pro.ended":
    case "payouts.enabled":
      return null;
    case "membership.created":
      return `membership:${event.membershipId}:created`;
    case "membership.renewed":
      return `membership:${event.membershipId}:renewed:${event.invoiceId}`;
    case "membership.payment_failed":
      return `membership:${event.membershipId}:payment_failed:${event.invoiceId}`;
    case "membership.cancelled":
      return `membership:${event.membershipId}:cancelled:${event.periodEnd}`;
    case "membership.ended":
      return `membership:${event.membershipId}:ended`;
  }
}
