import type Stripe from "stripe";
import { fixture, fromFixture, newId, nowSeconds } from "#tests/support/stripe-emulator/fixtures";

/** Builders of Stripe Billing objects (Pro membership): Stripe's fixture, with what this object is written over it. */

export function newProduct(input: { name: string; metadata: Record<string, string> }): Stripe.Product {
  const created = nowSeconds();
  return fromFixture<Stripe.Product>("product", {
    id: newId("prod", 14),
    name: input.name,
    description: null,
    metadata: input.metadata,
    created,
    updated: created,
    default_price: null,
    package_dimensions: null,
    type: "service",
  });
}

export function newPrice(input: {
  product: string;
  currency: string;
  unitAmount: number;
  lookupKey: string | null;
  interval: Stripe.Price.Recurring.Interval | null;
  metadata: Record<string, string>;
  /** False for a price made inline by `price_data` (Checkout, a subscription update): Stripe makes it inactive, for that use only. */
  active?: boolean;
}): Stripe.Price {
  return fromFixture<Stripe.Price>("price", {
    id: newId("price"),
    active: input.active ?? true,
    product: input.product,
    currency: input.currency,
    unit_amount: input.unitAmount,
    // A string on the wire; the SDK's type is its Decimal wrapper.
    unit_amount_decimal: String(input.unitAmount) as unknown as Stripe.Decimal,
    lookup_key: input.lookupKey,
    metadata: input.metadata,
    created: nowSeconds(),
    custom_unit_amount: null,
    transform_quantity: null,
    type: input.interval ? "recurring" : "one_time",
    recurring: input.interval ? { interval: input.interval, interval_count: 1, meter: null, usage_type: "licensed", trial_period_days: null } : null,
  });
}

export function newCustomer(input: { email: string | null; metadata: Record<string, string> }): Stripe.Customer {
  const id = newId("cus", 14);
  return fromFixture<Stripe.Customer>("customer", {
    id,
    email: input.email,
    metadata: input.metadata,
    created: nowSeconds(),
    currency: null,
    discount: null,
    invoice_prefix: id.slice(4, 11).toUpperCase(),
  });
}

/** The legacy plan view of a price, as Stripe still returns it on a subscription item. */
export function planOf(price: Stripe.Price): Stripe.Plan {
  const itemFixture = (fixture("subscription") as unknown as Stripe.Subscription).items.data[0]!;
  return {
    ...itemFixture.plan,
    id: price.id,
    active: price.active,
    amount: price.unit_amount,
    amount_decimal: price.unit_amount_decimal,
    billing_scheme: "per_unit",
    created: price.created,
    currency: price.currency,
    interval: price.recurring!.interval,
    interval_count: 1,
    livemode: false,
    metadata: {},
    product: price.product,
    transform_usage: null,
  };
}

/** The end of a period that starts at `start` (seconds), by calendar month or year as Stripe bills. */
export function periodEndAfter(start: number, interval: Stripe.Price.Recurring.Interval): number {
  const date = new Date(start * 1000);
  if (interval === "year") date.setUTCFullYear(date.getUTCFullYear() + 1);
  else if (interval === "month") date.setUTCMonth(date.getUTCMonth() + 1);
  else if (interval === "week") date.setUTCDate(date.getUTCDate() + 7);
  else date.setUTCDate(date.getUTCDate() + 1);
  return Math.floor(date.getTime() / 1000);
}

/**
 * A subscription to one price, active from now. Since API version
 * 2025-03-31.basil the billing period lives on the item
 * (`items.data[].current_period_start/end`), not on the subscription.
 */
export function newSubscription(input: {
  customer: string;
  price: Stripe.Price;
  metadata: Record<string, string>;
  /** A subscription paying a connected account (a membership): every invoice's charge is a destination charge. */
  destination?: string | null;
  applicationFeePercent?: number | null;
}): Stripe.Subscription {
  const id = newId("sub");
  const start = nowSeconds();
  const itemFixture = (fixture("subscription") as unknown as Stripe.Subscription).items.data[0]!;
  const subscriptionItem: Stripe.SubscriptionItem = {
    ...itemFixture,
    id: newId("si", 14),
    created: start,
    metadata: {},
    price: structuredClone(input.price),
    plan: planOf(input.price),
    quantity: 1,
    subscription: id,
    current_period_start: start,
    current_period_end: periodEndAfter(start, input.price.recurring!.interval),
    billing_thresholds: null,
  };
  return fromFixture<Stripe.Subscription>("subscription", {
    id,
    customer: input.customer,
    currency: input.price.currency,
    metadata: input.metadata,
    created: start,
    start_date: start,
    billing_cycle_anchor: start,
    billing_cycle_anchor_config: null,
    status: "active",
    cancel_at_period_end: false,
    cancel_at: null,
    canceled_at: null,
    ended_at: null,
    trial_start: null,
    trial_end: null,
    next_pending_invoice_item_invoice: null,
    pause_collection: null,
    pending_update: null,
    transfer_data: input.destination ? { amount_percent: null, destination: input.destination } : null,
    application_fee_percent: input.applicationFeePercent ?? null,
    billing_thresholds: null,
    latest_invoice: null,
    items: { object: "list", data: [subscriptionItem], has_more: false, url: `/v1/subscription_items?subscription=${id}` },
  });
}

/** The invoice for one period of a subscription, finalized and open: charging it (./billing-payments.ts) pays it or leaves it open. */
export function newSubscriptionInvoice(
  subscription: Stripe.Subscription,
  input: { billingReason: Stripe.Invoice.BillingReason; customerEmail: string | null },
): Stripe.Invoice {
  const id = newId("in");
  const item = subscription.items.data[0]!;
  const amount = item.price.unit_amount ?? 0;
  const now = nowSeconds();
  const invoiceFixture = fixture("invoice") as unknown as Stripe.Invoice;
  const line: Stripe.InvoiceLineItem = {
    ...invoiceFixture.lines.data[0]!,
    id: newId("il"),
    amount,
    currency: subscription.currency,
    description: `1 × ${typeof item.price.product === "string" ? item.price.product : item.price.product.id}`,
    invoice: id,
    metadata: subscription.metadata,
    period: { start: item.current_period_start, end: item.current_period_end },
    subscription: subscription.id,
    subtotal: amount,
    parent: {
      type: "subscription_item_details",
      invoice_item_details: null,
      subscription_item_details: { invoice_item: null, proration: false, proration_details: null, subscription: subscription.id, subscription_item: item.id },
    },
    pricing: { type: "price_details", price_details: { price: item.price.id, product: item.price.product as string }, unit_amount_decimal: item.price.unit_amount_decimal },
  };
  const invoice = fromFixture<Stripe.Invoice>("invoice", {
    id,
    customer: typeof subscription.customer === "string" ? subscription.customer : subscription.customer.id,
    customer_email: input.customerEmail,
    currency: subscription.currency,
    created: now,
    amount_due: amount,
    amount_paid: 0,
    amount_remaining: amount,
    attempt_count: 0,
    attempted: false,
    auto_advance: true,
    billing_reason: input.billingReason,
    status: "open",
    status_transitions: { finalized_at: now, marked_uncollectible_at: null, paid_at: null, voided_at: null },
    period_start: item.current_period_start,
    period_end: item.current_period_end,
    subtotal: amount,
    subtotal_excluding_tax: amount,
    total: amount,
    total_excluding_tax: amount,
    due_date: null,
    effective_at: now,
    from_invoice: null,
    last_finalization_error: null,
    next_payment_attempt: now,
    number: `${id.slice(3, 11).toUpperCase()}-0001`,
    hosted_invoice_url: null,
    invoice_pdf: null,
    lines: { object: "list", data: [line], has_more: false, url: `/v1/invoices/${id}/lines` },
    parent: { type: "subscription_details", quote_details: null, subscription_details: { metadata: subscription.metadata, subscription: subscription.id } },
  });
  // The fixture still shows the pre-basil top-level `subscription`; keep it truthful rather than the fixture's null.
  (invoice as unknown as { subscription: string }).subscription = subscription.id;
  return invoice;
}

/** An invoice's default payment: the payment intent Stripe makes when it finalizes the invoice, open until paid. */
export function newInvoicePayment(invoice: Stripe.Invoice, paymentIntentId: string): Stripe.InvoicePayment {
  return fromFixture<Stripe.InvoicePayment>("invoice_payment", {
    id: newId("inpay"),
    amount_paid: null,
    amount_requested: invoice.amount_due,
    created: nowSeconds(),
    currency: invoice.currency,
    invoice: invoice.id,
    is_default: true,
    livemode: false,
    payment: { type: "payment_intent", payment_intent: paymentIntentId },
    status: "open",
    status_transitions: { canceled_at: null, paid_at: null },
  });
}

export function newPortalSession(
  input: { customer: string; returnUrl: string | null; flow?: Stripe.BillingPortal.Session.Flow | null },
  url: (id: string) => string,
): Stripe.BillingPortal.Session {
  const id = newId("bps");
  return fromFixture<Stripe.BillingPortal.Session>("billing_portal.session", {
    id,
    customer: input.customer,
    return_url: input.returnUrl,
    created: nowSeconds(),
    configuration: newId("bpc"),
    flow: input.flow ?? null,
    livemode: false,
    url: url(id),
  });
}

/** Cancel at period end, or undo it, as the API and the portal both do: access stays until the period's end. */
export function setCancelAtPeriodEnd(subscription: Stripe.Subscription, cancel: boolean): void {
  const periodEnd = Math.max(...subscription.items.data.map((item) => item.current_period_end));
  Object.assign(subscription, {
    cancel_at_period_end: cancel,
    cancel_at: cancel ? periodEnd : null,
    canceled_at: cancel ? nowSeconds() : null,
  } satisfies Partial<Stripe.Subscription>);
}
