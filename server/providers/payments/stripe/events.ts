import type Stripe from "stripe";
import { paymentEventSchema, type PaymentEvent } from "#server/providers/payments/events";
import { idOf, refundStatus } from "#server/providers/payments/stripe/payments";

/**
 * Stripe's events → ours. Only the types below reach our handlers; anything
 * else Stripe sends (an endpoint may be subscribed to more) maps to null and
 * is acknowledged without being stored.
 *
 * Refunds: Stripe sends `refund.created` when a refund is made, `refund.updated`
 * when its status changes (a pending refund settling) and `refund.failed` when
 * it fails; a card refund usually succeeds at once and then only `refund.created`
 * arrives. All three carry the refund as it is now, so all three become our
 * `refund.updated`, and the handler converges on the latest status whatever the
 * order.
 *
 * Pro membership: subscription and invoice events, and a checkout
 * whose metadata.purpose is "pro", all become `pro.customer_changed` naming
 * the customer; the handler then reads Stripe's truth for that customer, so
 * nothing else of the payload is trusted. An expired Pro checkout changes
 * nothing and maps to null. Sponsor checkouts carry no purpose and keep
 * their own events; a deal's held checkout (metadata.purpose "deal") keeps them
 * too, marked `purpose: "deal"` so the tip handlers leave it to the deal's.
 *
 * Memberships (ADR 0084): a checkout whose metadata.purpose is "membership"
 * (completed or expired), and subscription and invoice events whose
 * subscription's metadata says so (an invoice carries it as
 * parent.subscription_details.metadata, as of API version 2025-03-31.basil),
 * become `membership.changed` naming our row and the subscription; the handler
 * reads Stripe's truth for it. Every other subscription and invoice is Pro's.
 */
export const HANDLED_STRIPE_EVENT_TYPES = [
  "checkout.session.completed",
  "checkout.session.async_payment_succeeded",
  "checkout.session.async_payment_failed",
  "checkout.session.expired",
  "charge.refunded",
  "refund.created",
  "refund.updated",
  "refund.failed",
  "charge.dispute.created",
  "charge.dispute.updated",
  "charge.dispute.closed",
  "charge.dispute.funds_withdrawn",
  "charge.dispute.funds_reinstated",
  "account.updated",
  "customer.subscription.created",
  "customer.subscription.updated",
  "customer.subscription.deleted",
  "invoice.paid",
  "invoice.payment_failed",
] as const satisfies readonly Stripe.Event.Type[];

const CHECKOUT_EVENT_TYPES = {
  "checkout.session.completed": "checkout.completed",
  "checkout.session.async_payment_succeeded": "checkout.async_payment_succeeded",
  "checkout.session.async_payment_failed": "checkout.async_payment_failed",
  "checkout.session.expired": "checkout.expired",
} as const;

function checkoutEvent(type: (typeof CHECKOUT_EVENT_TYPES)[keyof typeof CHECKOUT_EVENT_TYPES], session: Stripe.Checkout.Session) {
  return {
    type,
    checkoutId: session.id,
    // We send our row id both ways; metadata is the one a dashboard user cannot clear. A deal's
    // checkout carries its deal_fundings id as funding_id.
    sessionId: session.metadata?.session_id ?? session.metadata?.funding_id ?? session.client_reference_id ?? null,
    purpose: session.metadata?.purpose === "deal" ? "deal" : "sponsor",
    paymentIntentId: idOf(session.payment_intent),
    paymentStatus: session.payment_status,
    customerEmail: session.customer_details?.email ?? null,
    amount: session.amount_total ?? 0,
    currency: session.currency,
  };
}

const isProCheckout = (session: Stripe.Checkout.Session) => session.metadata?.purpose === "pro";
const isMembership = (metadata: Stripe.Metadata | null | undefined) => metadata?.purpose === "membership";

const MEMBERSHIP_CAUSES = {
  "checkout.session.completed": "checkout.completed",
  "checkout.session.expired": "checkout.expired",
  "customer.subscription.created": "subscription.created",
  "customer.subscription.updated": "subscription.updated",
  "customer.subscription.deleted": "subscription.deleted",
  "invoice.paid": "invoice.paid",
  "invoice.payment_failed": "invoice.payment_failed",
} as const;

function membershipChanged(type: keyof typeof MEMBERSHIP_CAUSES, metadata: Stripe.Metadata | null | undefined, subscription: string | { id: string } | null, checkoutId: string | null) {
  return { type: "membership.changed", membershipId: metadata?.membership_id ?? null, subscriptionId: idOf(subscription), checkoutId, cause: MEMBERSHIP_CAUSES[type] };
}

const PRO_CAUSES = {
  "checkout.session.completed": "checkout.completed",
  "customer.subscription.created": "subscription.created",
  "customer.subscription.updated": "subscription.updated",
  "customer.subscription.deleted": "subscription.deleted",
  "invoice.paid": "invoice.paid",
  "invoice.payment_failed": "invoice.payment_failed",
} as const;

function proCustomerChanged(type: keyof typeof PRO_CAUSES, customer: string | { id: string } | null) {
  return { type: "pro.customer_changed", customerId: idOf(customer), cause: PRO_CAUSES[type] };
}

/**
 * Stripe's dispute statuses → ours. Inquiries (warning_*) and prevented
 * disputes move no money and ask nothing of the creator: null, not handled.
 */
const DISPUTE_STATUSES: Partial<Record<Stripe.Dispute.Status, "needs_response" | "under_review" | "won" | "lost">> = {
  needs_response: "needs_response",
  under_review: "under_review",
  won: "won",
  lost: "lost",
};

/**
 * The dispute fee: the fee of the balance transaction that withdrew the
 * money (Stripe's 1500 in USD), null while the dispute carries none (funds
 * not withdrawn yet). The reinstating transaction of a won dispute is positive and not counted.
 */
export function disputeFee(dispute: Stripe.Dispute): number | null {
  const withdrawals = dispute.balance_transactions.filter((txn) => txn.amount < 0);
  return withdrawals.length === 0 ? null : withdrawals.reduce((sum, txn) => sum + txn.fee, 0);
}

function disputeChanged(dispute: Stripe.Dispute) {
  const status = DISPUTE_STATUSES[dispute.status];
  if (!status) return null;
  const dueBy = dispute.evidence_details?.due_by;
  return {
    type: "dispute.changed",
    disputeId: dispute.id,
    paymentIntentId: idOf(dispute.payment_intent),
    chargeId: idOf(dispute.charge),
    reason: dispute.reason,
    status,
    evidenceDueBy: dueBy ? new Date(dueBy * 1000) : null,
    fee: disputeFee(dispute),
    amount: dispute.amount,
    currency: dispute.currency,
  };
}

function fields(event: Stripe.Event): Record<string, unknown> | null {
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded":
      if (isMembership(event.data.object.metadata)) {
        const session = event.data.object;
        return membershipChanged("checkout.session.completed", session.metadata, session.subscription, session.id);
      }
      // A delayed Pro payment (should a delayed method ever be enabled) counts once it is paid; the sync reads whether it is.
      if (isProCheckout(event.data.object)) return proCustomerChanged("checkout.session.completed", event.data.object.customer);
      return checkoutEvent(CHECKOUT_EVENT_TYPES[event.type], event.data.object);
    case "checkout.session.async_payment_failed":
    case "checkout.session.expired":
      // An unpaid or abandoned Pro checkout changes nothing the member has.
      if (isProCheckout(event.data.object)) return null;
      // An abandoned membership checkout leaves a row waiting for it; a failed delayed payment cannot happen (cards only).
      if (isMembership(event.data.object.metadata)) {
        const session = event.data.object;
        return event.type === "checkout.session.expired" ? membershipChanged(event.type, session.metadata, session.subscription, session.id) : null;
      }
      return checkoutEvent(CHECKOUT_EVENT_TYPES[event.type], event.data.object);
    case "charge.refunded": {
      const charge = event.data.object;
      return {
        type: "charge.refunded",
        paymentIntentId: idOf(charge.payment_intent),
        chargeId: charge.id,
        amountRefunded: charge.amount_refunded,
        currency: charge.currency,
      };
    }
    case "refund.created":
    case "refund.updated":
    case "refund.failed": {
      const refund = event.data.object;
      return {
        type: "refund.updated",
        refundId: refund.id,
        paymentIntentId: idOf(refund.payment_intent),
        status: refundStatus(refund.status),
        amount: refund.amount,
        currency: refund.currency,
      };
    }
    case "charge.dispute.created":
    case "charge.dispute.updated":
    case "charge.dispute.closed":
    case "charge.dispute.funds_withdrawn":
    case "charge.dispute.funds_reinstated":
      return disputeChanged(event.data.object);
    case "account.updated": {
      const account = event.data.object;
      return {
        type: "account.updated",
        accountId: account.id,
        chargesEnabled: account.charges_enabled === true,
        payoutsEnabled: account.payouts_enabled === true,
        detailsSubmitted: account.details_submitted === true,
      };
    }
    case "customer.subscription.created":
    case "customer.subscription.updated":
    case "customer.subscription.deleted": {
      const subscription = event.data.object;
      if (isMembership(subscription.metadata)) return membershipChanged(event.type, subscription.metadata, subscription, null);
      return proCustomerChanged(event.type, subscription.customer);
    }
    case "invoice.paid":
    case "invoice.payment_failed": {
      // Only subscription invoices concern Pro and memberships; a one-off invoice (none today) is not ours to read.
      const invoice = event.data.object;
      if (invoice.parent?.type !== "subscription_details") return null;
      const details = invoice.parent.subscription_details;
      if (isMembership(details?.metadata)) return membershipChanged(event.type, details!.metadata, details!.subscription, null);
      return proCustomerChanged(event.type, invoice.customer);
    }
    default:
      return null;
  }
}

export class UnreadableStripeEventError extends Error {
  constructor(event: Stripe.Event, problem: string) {
    super(`Stripe event ${event.id} (${event.type}) does not carry what we need: ${problem}`);
    this.name = "UnreadableStripeEventError";
  }
}

/**
 * Our event for a verified Stripe event, or null for a type we do not handle.
 * Throws UnreadableStripeEventError when a handled type lacks a field we need
 * (e.g. a refund event for a charge made outside Checkout): a signed event we
 * cannot read is a bug to see, not a delivery to drop silently.
 */
export function toPaymentEvent(event: Stripe.Event): PaymentEvent | null {
  const mapped = fields(event);
  if (!mapped) return null;
  const parsed = paymentEventSchema.safeParse({
    provider: "stripe",
    eventId: event.id,
    occurredAt: new Date(event.created * 1000),
    ...mapped,
  });
  if (!parsed.success) {
    throw new UnreadableStripeEventError(event, parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; "));
  }
  return parsed.data;
}
