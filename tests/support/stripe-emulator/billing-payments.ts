import type Stripe from "stripe";
import { newInvoicePayment } from "#tests/support/stripe-emulator/billing-objects";
import { newEvent, type EmulatorEvent } from "#tests/support/stripe-emulator/events";
import { nowSeconds } from "#tests/support/stripe-emulator/fixtures";
import type { ApiContext } from "#tests/support/stripe-emulator/handler";
import { newCharge, newPaymentIntent, settleCharge } from "#tests/support/stripe-emulator/objects";

/**
 * How Stripe Billing collects a subscription's invoice: a finalized invoice
 * gets one default payment intent (listed as its invoice payment; since API
 * version 2025-03-31.basil the invoice has no `payment_intent` field), and
 * each attempt is a charge on that intent. For a subscription with
 * `transfer_data.destination` and `application_fee_percent` (a membership),
 * the intent is a destination charge with `application_fee_amount` =
 * the percentage of the invoice's total, rounded to the cent: its charge,
 * balance transaction, transfer and application fee look exactly like a
 * tip's, so refunds, disputes and balance listings treat a renewal the same.
 *
 * A declined attempt leaves the invoice open (`attempt_count` up, the next
 * attempt three days on); after `MAX_PAYMENT_ATTEMPTS` Stripe's default
 * settings give up: the invoice is marked uncollectible and the
 * subscription canceled.
 */
export const MAX_PAYMENT_ATTEMPTS = 4;

/** Stripe's test card whose charges are declined once attached to a customer. */
export const DECLINED_AFTER_ATTACHING = "4000000000000341";

const idOf = (value: string | { id: string } | null) => (typeof value === "string" ? value : (value?.id ?? null));

function defaultPayment(context: ApiContext, invoiceId: string): Stripe.InvoicePayment | undefined {
  return [...context.store.invoicePayments.values()].find((payment) => payment.invoice === invoiceId && payment.is_default);
}

/**
 * One attempt to collect an open invoice with the customer's card (declined
 * when the card is set to fail, unless `accepted`: the card just typed into
 * Checkout). Answers whether it was paid; the caller sends the events.
 */
export function chargeInvoice(context: ApiContext, invoice: Stripe.Invoice, subscription: Stripe.Subscription, options: { accepted?: boolean } = {}): boolean {
  const { store } = context;
  const customerId = idOf(invoice.customer)!;
  let payment = defaultPayment(context, invoice.id);
  let intent = payment ? store.paymentIntents.get(String(payment.payment.payment_intent)) : undefined;
  if (!payment || !intent) {
    const percent = subscription.application_fee_percent;
    const destination = idOf(subscription.transfer_data?.destination ?? null);
    intent = newPaymentIntent({
      amount: invoice.amount_due,
      currency: invoice.currency,
      applicationFeeAmount: destination && percent ? Math.round((invoice.amount_due * percent) / 100) : null,
      destination,
      metadata: {},
      receiptEmail: invoice.customer_email,
      customer: customerId,
    });
    intent.description = invoice.billing_reason === "subscription_create" ? "Subscription creation" : "Subscription update";
    store.paymentIntents.set(intent.id, intent);
    payment = newInvoicePayment(invoice, intent.id);
    store.invoicePayments.set(payment.id, payment);
  }
  const declined = !options.accepted && context.failingCards.has(customerId);
  const charge = newCharge(intent, { balanceTransaction: null, paid: !declined, email: invoice.customer_email });
  charge.description = intent.description;
  store.charges.set(charge.id, charge);
  Object.assign(intent, { latest_charge: charge.id, payment_method: charge.payment_method });
  const now = nowSeconds();
  invoice.attempt_count += 1;
  invoice.attempted = true;
  if (declined) {
    Object.assign(charge, { status: "failed", failure_code: "card_declined", failure_message: "Your card was declined." });
    intent.status = "requires_payment_method";
    intent.last_payment_error = { type: "card_error", code: "card_declined", decline_code: "generic_decline", message: "Your card was declined.", charge: charge.id } as Stripe.PaymentIntent.LastPaymentError;
    invoice.next_payment_attempt = invoice.attempt_count < MAX_PAYMENT_ATTEMPTS ? now + 3 * 86_400 : null;
    return false;
  }
  settleCharge(store, intent, charge);
  intent.last_payment_error = null;
  Object.assign(invoice, {
    status: "paid",
    amount_paid: invoice.amount_due,
    amount_remaining: 0,
    auto_advance: false,
    next_payment_attempt: null,
    status_transitions: { ...invoice.status_transitions, paid_at: now },
  } satisfies Partial<Stripe.Invoice>);
  Object.assign(payment, { status: "paid", amount_paid: invoice.amount_due, status_transitions: { canceled_at: null, paid_at: now } } satisfies Partial<Stripe.InvoicePayment>);
  return true;
}

/**
 * Another attempt at a past-due subscription's open invoice (a smart retry,
 * or a new card): paid, the subscription is active again; declined for the
 * last time, the invoice is uncollectible and the subscription ends.
 */
export function retryOpenInvoice(context: ApiContext, subscription: Stripe.Subscription): EmulatorEvent[] {
  const invoice = context.store.invoices.get(String(subscription.latest_invoice));
  if (!invoice || invoice.status !== "open") return [];
  if (chargeInvoice(context, invoice, subscription)) {
    subscription.status = "active";
    return [newEvent("invoice.paid", invoice), newEvent("customer.subscription.updated", subscription)];
  }
  if (invoice.attempt_count < MAX_PAYMENT_ATTEMPTS) return [newEvent("invoice.payment_failed", invoice)];
  const now = nowSeconds();
  Object.assign(invoice, { status: "uncollectible", auto_advance: false, status_transitions: { ...invoice.status_transitions, marked_uncollectible_at: now } } satisfies Partial<Stripe.Invoice>);
  Object.assign(subscription, {
    status: "canceled",
    canceled_at: now,
    ended_at: now,
    cancel_at: null,
    cancel_at_period_end: false,
    cancellation_details: { comment: null, feedback: null, feedback_option: null, reason: "payment_failed" } as Stripe.Subscription.CancellationDetails,
  } satisfies Partial<Stripe.Subscription>);
  return [newEvent("invoice.payment_failed", invoice), newEvent("customer.subscription.deleted", subscription)];
}

/**
 * The customer gave a new card (the billing portal's card update): 4000 0000 0000 0341 is
 * attached but declined from then on; any other card is accepted, and each past-due
 * subscription's open invoice is tried with it at once.
 */
export function updateCard(context: ApiContext, customerId: string, card: string): EmulatorEvent[] {
  const number = card.replace(/\s+/g, "");
  if (number === DECLINED_AFTER_ATTACHING) {
    context.failingCards.add(customerId);
    return [];
  }
  context.failingCards.delete(customerId);
  const pastDue = [...context.store.subscriptions.values()].filter((subscription) => idOf(subscription.customer) === customerId && subscription.status === "past_due");
  return pastDue.flatMap((subscription) => retryOpenInvoice(context, subscription));
}
