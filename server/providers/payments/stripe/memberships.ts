import Stripe from "stripe";
import type {
  CheckoutCreated,
  MembershipBilling,
  MembershipCheckoutInput,
  ProviderMembershipInvoice,
  ProviderMembershipState,
  ProviderSubscriptionStatus,
} from "#server/providers/payments/port";
import { idOf } from "#server/providers/payments/stripe/payments";

/**
 * Memberships on Stripe Billing (ADR 0084): a subscription made by hosted
 * Checkout whose every invoice is a destination charge to the creator's
 * connected account (`transfer_data.destination`) less the platform's
 * `application_fee_percent`. The price is made inline (`price_data`) from the
 * tier as it was when the member joined, so a tier's later price leaves them
 * alone. metadata.purpose "membership" and metadata.membership_id are on the
 * session and on the subscription, so every event about either names our row.
 */

export const MEMBERSHIP_PURPOSE = "membership";

export async function createMembershipCheckout(stripe: Stripe, input: MembershipCheckoutInput, expiresAt: Date): Promise<CheckoutCreated> {
  const metadata = { purpose: MEMBERSHIP_PURPOSE, membership_id: input.membershipId };
  const session = await stripe.checkout.sessions.create(
    {
      mode: "subscription",
      line_items: [
        {
          quantity: 1,
          price_data: { currency: input.currency, unit_amount: input.amount, recurring: { interval: input.interval }, product_data: { name: input.productName } },
        },
      ],
      subscription_data: {
        transfer_data: { destination: input.destinationAccountId },
        ...(input.applicationFeePercent > 0 && { application_fee_percent: input.applicationFeePercent }),
        metadata,
      },
      client_reference_id: input.membershipId,
      metadata,
      ...(input.memberEmail && { customer_email: input.memberEmail }),
      success_url: input.successUrl,
      cancel_url: input.cancelUrl,
      expires_at: Math.floor(expiresAt.getTime() / 1000),
    },
    { idempotencyKey: input.idempotencyKey },
  );
  if (!session.url) throw new Error(`Stripe returned checkout session ${session.id} without a URL`);
  return { checkoutId: session.id, url: session.url, expiresAt: new Date(session.expires_at * 1000) };
}

export async function membershipSubscriptionOfCheckout(stripe: Stripe, checkoutId: string): Promise<string | null> {
  const session = await stripe.checkout.sessions.retrieve(checkoutId);
  return session.status === "complete" ? idOf(session.subscription) : null;
}

const KNOWN_STATUSES: readonly ProviderSubscriptionStatus[] = ["active", "trialing", "past_due", "canceled", "incomplete", "incomplete_expired", "unpaid", "paused"];

/** A status this SDK does not know (a newer API) is read as "incomplete" rather than guessed at, as Pro reads it. */
function subscriptionStatus(status: Stripe.Subscription.Status): ProviderSubscriptionStatus {
  return (KNOWN_STATUSES as readonly string[]).includes(status) ? (status as ProviderSubscriptionStatus) : "incomplete";
}

function interval(price: Stripe.Price, subscriptionId: string): "month" | "year" {
  const value: string | undefined = price.recurring?.interval;
  if (value === "month" || value === "year") return value;
  throw new Error(`Stripe subscription ${subscriptionId} bills every ${value ?? "nothing"}, not a month or a year`);
}

const INVOICE_STATUSES: Record<string, ProviderMembershipInvoice["status"]> = { paid: "paid", open: "open", uncollectible: "uncollectible", void: "void" };
const REASONS = { subscription_create: "subscription_create", subscription_cycle: "subscription_cycle" } as const;

/**
 * The payment of a paid invoice. Since API version 2025-03-31.basil an invoice
 * has no `payment_intent`: its payments are the includable `payments` list
 * (asked for with expand), each naming its payment intent; the paid one is
 * the invoice's payment.
 */
function paidIntent(invoice: Stripe.Invoice): string | null {
  if (invoice.status !== "paid") return null;
  const payments = invoice.payments?.data ?? [];
  const paid = payments.find((payment) => payment.status === "paid") ?? payments.find((payment) => payment.is_default);
  return idOf(paid?.payment.payment_intent ?? null);
}

function toInvoice(invoice: Stripe.Invoice): ProviderMembershipInvoice {
  // The invoice's own period_start/end is the previous period on a renewal; the subscription line says what it pays for.
  const line = invoice.lines.data.find((candidate) => candidate.parent?.type === "subscription_item_details") ?? invoice.lines.data[0];
  const period = line?.period ?? { start: invoice.period_start, end: invoice.period_end };
  const paidAt = invoice.status_transitions.paid_at;
  return {
    invoiceId: invoice.id,
    paymentIntentId: paidIntent(invoice),
    amount: invoice.total,
    currency: invoice.currency,
    // A status this SDK does not know is read as still owed.
    status: INVOICE_STATUSES[invoice.status ?? "open"] ?? "open",
    periodStart: new Date(period.start * 1000),
    periodEnd: new Date(period.end * 1000),
    paidAt: paidAt ? new Date(paidAt * 1000) : null,
    // Anything else Stripe bills a subscription for (a manual or threshold invoice) is a change of it.
    reason: REASONS[invoice.billing_reason as keyof typeof REASONS] ?? "subscription_update",
  };
}

export async function readMembershipState(stripe: Stripe, subscriptionId: string): Promise<ProviderMembershipState> {
  const subscription = await stripe.subscriptions.retrieve(subscriptionId, { expand: ["customer"] });
  const item = subscription.items.data[0];
  if (!item) throw new Error(`Stripe subscription ${subscriptionId} has no items`);
  const invoices: ProviderMembershipInvoice[] = [];
  for await (const invoice of stripe.invoices.list({ subscription: subscriptionId, limit: 100, expand: ["data.payments"] })) {
    // A renewal's invoice is a draft for about an hour before Stripe finalizes and charges it: nothing is owed or tried yet.
    if (invoice.status !== "draft") invoices.push(toInvoice(invoice));
  }
  const customer = subscription.customer;
  return {
    subscriptionId: subscription.id,
    customerId: idOf(customer)!,
    membershipId: subscription.metadata.purpose === MEMBERSHIP_PURPOSE ? (subscription.metadata.membership_id ?? null) : null,
    status: subscriptionStatus(subscription.status),
    amount: item.price.unit_amount ?? 0,
    currency: subscription.currency,
    interval: interval(item.price, subscription.id),
    // Since basil the period lives on each item; a membership has one.
    currentPeriodEnd: new Date(Math.max(...subscription.items.data.map((each) => each.current_period_end)) * 1000),
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    endedAt: subscription.ended_at ? new Date(subscription.ended_at * 1000) : null,
    customerEmail: typeof customer === "object" && !customer.deleted ? customer.email : null,
    // Stripe lists newest first.
    invoices: invoices.reverse(),
  };
}

/**
 * A new price on the subscription's one item, with no proration. A subscription
 * item's price_data names a product (it takes no product_data): a new name
 * (another tier) gets its own product, keyed from the caller's key so a retry
 * makes one. Stripe bills the new price from the next renewal when the interval
 * stays; a new interval would restart the cycle now and charge at once, so the
 * paid period is kept as a trial that ends when it would have (`trial_end`):
 * the new price and interval are first charged then, as the member page says.
 */
export async function changeMembershipPrice(
  stripe: Stripe,
  input: { idempotencyKey: string; subscriptionId: string; amount: number; interval: "month" | "year"; productName: string },
): Promise<void> {
  const subscription = await stripe.subscriptions.retrieve(input.subscriptionId, { expand: ["items.data.price.product"] });
  const item = subscription.items.data[0];
  if (!item) throw new Error(`Stripe subscription ${input.subscriptionId} has no items`);
  const current = item.price.product;
  let productId = idOf(current as string | { id: string })!;
  if (typeof current !== "object" || current.deleted || current.name !== input.productName) {
    const product = await stripe.products.create(
      { name: input.productName, metadata: { purpose: MEMBERSHIP_PURPOSE, membership_id: subscription.metadata.membership_id ?? "" } },
      { idempotencyKey: `${input.idempotencyKey}_product` },
    );
    productId = product.id;
  }
  await stripe.subscriptions.update(
    input.subscriptionId,
    {
      items: [{ id: item.id, price_data: { currency: subscription.currency, product: productId, unit_amount: input.amount, recurring: { interval: input.interval } } }],
      proration_behavior: "none",
      ...(item.price.recurring?.interval !== input.interval ? { trial_end: item.current_period_end } : {}),
    },
    { idempotencyKey: input.idempotencyKey },
  );
}

export async function setMembershipCancelAtPeriodEnd(stripe: Stripe, input: { idempotencyKey: string; subscriptionId: string; cancelAtPeriodEnd: boolean }): Promise<void> {
  await stripe.subscriptions.update(input.subscriptionId, { cancel_at_period_end: input.cancelAtPeriodEnd }, { idempotencyKey: input.idempotencyKey });
}

/** Ends it now without proration or a final invoice (a refund is its own call); one already ended is left as it is. */
export async function endMembershipNow(stripe: Stripe, input: { idempotencyKey: string; subscriptionId: string }): Promise<void> {
  const ended = async () => (await stripe.subscriptions.retrieve(input.subscriptionId)).status === "canceled";
  if (await ended()) return;
  try {
    await stripe.subscriptions.cancel(input.subscriptionId, { prorate: false, invoice_now: false }, { idempotencyKey: input.idempotencyKey });
  } catch (error) {
    // Ended meanwhile (the member, the retries giving up): what was asked is done.
    if (error instanceof Stripe.errors.StripeInvalidRequestError && (await ended())) return;
    throw error;
  }
}

/**
 * Stripe's billing portal opened straight on its card form (flow
 * payment_method_update), back to `returnUrl` once the card is saved. Made
 * afresh on each click and short-lived at Stripe, so it needs no idempotency key.
 */
export async function createMembershipCardLink(stripe: Stripe, input: { customerId: string; subscriptionId: string; returnUrl: string }): Promise<{ url: string }> {
  const session = await stripe.billingPortal.sessions.create({
    customer: input.customerId,
    return_url: input.returnUrl,
    flow_data: { type: "payment_method_update", after_completion: { type: "redirect", redirect: { return_url: input.returnUrl } } },
  });
  return { url: session.url };
}

export function stripeMembershipBilling(stripe: Stripe, checkoutExpiry: () => Date): MembershipBilling {
  return {
    createMembershipCheckout: (input) => createMembershipCheckout(stripe, input, checkoutExpiry()),
    membershipSubscriptionOfCheckout: (checkoutId) => membershipSubscriptionOfCheckout(stripe, checkoutId),
    readMembershipState: (subscriptionId) => readMembershipState(stripe, subscriptionId),
    changeMembershipPrice: (input) => changeMembershipPrice(stripe, input),
    setMembershipCancelAtPeriodEnd: (input) => setMembershipCancelAtPeriodEnd(stripe, input),
    endMembershipNow: (input) => endMembershipNow(stripe, input),
    createMembershipCardLink: (input) => createMembershipCardLink(stripe, input),
  };
}
