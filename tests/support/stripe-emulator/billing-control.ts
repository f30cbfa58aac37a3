import type Stripe from "stripe";
import { newCustomer, newSubscription, newSubscriptionInvoice, periodEndAfter } from "#tests/support/stripe-emulator/billing-objects";
import { chargeInvoice, retryOpenInvoice } from "#tests/support/stripe-emulator/billing-payments";
import { newEvent, type EmulatorEvent } from "#tests/support/stripe-emulator/events";
import type { ApiContext } from "#tests/support/stripe-emulator/handler";

/**
 * What Stripe Billing does on its own: a member paying for a subscription on
 * the hosted page, and time passing to the end of a billing period (what a
 * test clock does at Stripe): a renewal paid, a renewal declined, or a
 * subscription cancelled at period end coming to its end.
 */

const customerIdOf = (subscription: Stripe.Subscription) => (typeof subscription.customer === "string" ? subscription.customer : subscription.customer.id);

/**
 * The member paid a subscription checkout: the subscription starts with its
 * first invoice paid. Stripe does not promise an order between these three
 * events (our handler converges whatever the order); the emulator sends the
 * session's first.
 */
export function completeSubscriptionCheckout(context: ApiContext, session: Stripe.Checkout.Session, email: string): EmulatorEvent[] {
  const { store } = context;
  const pending = context.checkoutSubscriptions.get(session.id);
  if (!pending) throw new Error(`Checkout session ${session.id} has no subscription to start`);
  let customerId = typeof session.customer === "string" ? session.customer : (session.customer?.id ?? null);
  if (!customerId) {
    // Without `customer`, Checkout makes one from the email the person typed.
    const customer = newCustomer({ email, metadata: {} });
    store.customers.set(customer.id, customer);
    customerId = customer.id;
  }
  const price = store.prices.get(pending.priceId)!;
  const subscription = newSubscription({ customer: customerId, price, metadata: pending.metadata, destination: pending.destination, applicationFeePercent: pending.applicationFeePercent });
  const invoice = newSubscriptionInvoice(subscription, { billingReason: "subscription_create", customerEmail: email });
  subscription.latest_invoice = invoice.id;
  store.subscriptions.set(subscription.id, subscription);
  store.invoices.set(invoice.id, invoice);
  // The card just typed into Checkout pays the first invoice.
  chargeInvoice(context, invoice, subscription, { accepted: true });
  Object.assign(session, {
    status: "complete",
    payment_status: "paid",
    customer: customerId,
    subscription: subscription.id,
    invoice: invoice.id,
    customer_details: {
      address: { city: null, country: "US", line1: null, line2: null, postal_code: "94107", state: null },
      email,
      name: null,
      phone: null,
      tax_exempt: "none",
      tax_ids: [],
      business_name: null,
      individual_name: null,
    },
  } satisfies Partial<Stripe.Checkout.Session>);
  return [newEvent("checkout.session.completed", session), newEvent("customer.subscription.created", subscription), newEvent("invoice.paid", invoice)];
}

/**
 * Moves a subscription on in time. Cancelled at period end: it ends
 * (`customer.subscription.deleted`). Past due: the next retry of its open
 * invoice (./billing-payments.ts): paid (active again), declined
 * (`invoice.payment_failed`), or declined for the last time (the
 * subscription ends). Otherwise to the end of its period: it renews, the
 * period moves on by its interval and the renewal invoice is charged — paid
 * (`customer.subscription.updated`, `invoice.paid`, status active), or, when
 * the customer's card is set to fail, left open (`invoice.payment_failed`,
 * status past_due, `customer.subscription.updated`) for the retries.
 */
export function advanceSubscription(context: ApiContext, subscriptionId: string): EmulatorEvent[] {
  const { store } = context;
  const subscription = store.subscriptions.get(subscriptionId);
  if (!subscription) throw new Error(`No such subscription: ${subscriptionId}`);
  if (subscription.status === "canceled") throw new Error(`Subscription ${subscriptionId} is canceled`);
  const item = subscription.items.data[0]!;
  if (subscription.cancel_at_period_end) {
    Object.assign(subscription, { status: "canceled", ended_at: item.current_period_end, cancel_at_period_end: false } satisfies Partial<Stripe.Subscription>);
    return [newEvent("customer.subscription.deleted", subscription)];
  }
  if (subscription.status === "past_due") {
    const retried = retryOpenInvoice(context, subscription);
    if (retried.length > 0) return retried;
  }
  for (const each of subscription.items.data) {
    each.current_period_start = each.current_period_end;
    each.current_period_end = periodEndAfter(each.current_period_start, each.price.recurring!.interval);
  }
  return invoiceNow(context, subscription, "subscription_cycle");
}

/** A new invoice for the subscription's current period, charged at once: paid keeps it active, declined makes it past due. */
export function invoiceNow(context: ApiContext, subscription: Stripe.Subscription, billingReason: "subscription_cycle" | "subscription_update"): EmulatorEvent[] {
  const { store } = context;
  const customerId = customerIdOf(subscription);
  const invoice = newSubscriptionInvoice(subscription, { billingReason, customerEmail: store.customers.get(customerId)?.email ?? null });
  store.invoices.set(invoice.id, invoice);
  subscription.latest_invoice = invoice.id;
  const paid = chargeInvoice(context, invoice, subscription);
  subscription.status = paid ? "active" : "past_due";
  if (!paid) return [newEvent("invoice.payment_failed", invoice), newEvent("customer.subscription.updated", subscription)];
  return [newEvent("customer.subscription.updated", subscription), newEvent("invoice.paid", invoice)];
}
