import { z } from "zod";

/**
 * The payment events our handlers act on, normalised from the provider's own
 * (Stripe's `checkout.session.completed`, …, or the sandbox's). Amounts are
 * integer minor units of `currency` (lowercase ISO 4217). `eventId` is the
 * provider's id of the event: with `provider` it names the event once,
 * however often it is delivered.
 */
const base = {
  provider: z.enum(["stripe", "sandbox"]),
  eventId: z.string().min(1).max(255),
  occurredAt: z.coerce.date(),
};
const money = { amount: z.number().int().nonnegative(), currency: z.string().regex(/^[a-z]{3}$/) };

/** A checkout ended: paid now (`paymentStatus` "paid"), paid later (async), failed or expired. */
const checkoutEvent = <T extends string>(type: T) =>
  z.object({
    ...base,
    type: z.literal(type),
    checkoutId: z.string().min(1),
    // Our sponsor_sessions row id, sent to the provider as metadata / client_reference_id.
    sessionId: z.string().min(1).nullable(),
    paymentIntentId: z.string().min(1).nullable(),
    paymentStatus: z.enum(["paid", "unpaid", "no_payment_required"]),
    // The address the payer gave the provider's checkout (Stripe's customer_details.email): where
    // the receipt goes. Null when the provider has none; absent in events queued before it was sent.
    customerEmail: z.string().max(320).nullable().default(null),
    // What the checkout pays for: a tip or sponsorship ("sponsor", our sponsor_sessions) or a deal's
    // held payment ("deal", `sessionId` is then our deal_fundings id). Absent in events queued before
    // deals existed, which were all sponsor checkouts.
    purpose: z.enum(["sponsor", "deal"]).default("sponsor"),
    ...money,
  });

export const paymentEventSchema = z.discriminatedUnion("type", [
  checkoutEvent("checkout.completed"),
  checkoutEvent("checkout.async_payment_succeeded"),
  checkoutEvent("checkout.async_payment_failed"),
  checkoutEvent("checkout.expired"),
  z.object({
    ...base,
    type: z.literal("charge.refunded"),
    paymentIntentId: z.string().min(1),
    chargeId: z.string().min(1),
    // Everything refunded on this charge so far (Stripe's amount_refunded), not just this refund.
    amountRefunded: z.number().int().nonnegative(),
    currency: money.currency,
  }),
  z.object({
    ...base,
    type: z.literal("refund.updated"),
    refundId: z.string().min(1),
    paymentIntentId: z.string().min(1).nullable(),
    status: z.enum(["pending", "requires_action", "succeeded", "failed", "canceled"]),
    ...money,
  }),
  /**
   * A chargeback as the provider reports it now: Stripe's charge.dispute.created,
   * .updated, .closed, .funds_withdrawn and .funds_reinstated all carry the whole
   * dispute object, so all become this one event, and the handler converges on
   * the status it carries (server/domains/payments/disputes/disputes.ts), whatever the order.
   * `fee`: the provider's dispute fee from the dispute's balance transactions, null
   * when the event carries none.
   */
  z.object({
    ...base,
    type: z.literal("dispute.changed"),
    disputeId: z.string().min(1),
    paymentIntentId: z.string().min(1).nullable(),
    chargeId: z.string().min(1),
    reason: z.string(),
    status: z.enum(["needs_response", "under_review", "won", "lost"]),
    evidenceDueBy: z.coerce.date().nullable(),
    fee: z.number().int().nonnegative().nullable(),
    ...money,
  }),
  /**
   * Something changed about a customer's Pro purchases: a Pro checkout completed
   * (subscription or Limitless), a subscription was created, updated or deleted,
   * an invoice was paid or its payment failed. The handler reads the provider's
   * truth for the customer and converges on it (server/domains/pro/sync.ts),
   * so the order and number of these events do not matter; `cause` is kept
   * for the log and for the "renewal failed" notice.
   */
  z.object({
    ...base,
    type: z.literal("pro.customer_changed"),
    customerId: z.string().min(1),
    cause: z.enum([
      "checkout.completed",
      "subscription.created",
      "subscription.updated",
      "subscription.deleted",
      "invoice.paid",
      "invoice.payment_failed",
    ]),
  }),
  /**
   * Something changed about a membership (ADR 0084): its checkout completed or expired, its
   * subscription was created, updated or deleted, an invoice was paid or its payment failed. The
   * handler reads the provider's truth for the subscription and converges on it
   * (server/domains/memberships/), so the order and number of these events do not matter.
   * `membershipId` is our row (metadata.membership_id); `subscriptionId` is null only for a
   * checkout that never made one (expired).
   */
  z.object({
    ...base,
    type: z.literal("membership.changed"),
    membershipId: z.string().min(1).nullable(),
    subscriptionId: z.string().min(1).nullable(),
    checkoutId: z.string().min(1).nullable(),
    cause: z.enum([
      "checkout.completed",
      "checkout.expired",
      "subscription.created",
      "subscription.updated",
      "subscription.deleted",
      "invoice.paid",
      "invoice.payment_failed",
    ]),
  }),
  z.object({
    ...base,
    type: z.literal("account.updated"),
    accountId: z.string().min(1),
    chargesEnabled: z.boolean(),
    payoutsEnabled: z.boolean(),
    detailsSubmitted: z.boolean(),
  }),
]);

export type PaymentEvent = z.infer<typeof paymentEventSchema>;
export type PaymentEventType = PaymentEvent["type"];
export type PaymentEventOf<T extends PaymentEventType> = Extract<PaymentEvent, { type: T }>;
