import type Stripe from "stripe";
import type { CheckoutCreated, ProCheckoutInput, ProPriceSpec, ProviderProState, ProviderSubscription, ProviderSubscriptionStatus } from "#server/providers/payments/port";
import { idOf } from "#server/providers/payments/stripe/payments";
import { planOfLookupKey, type ProPlanKey } from "#isomorphic/pro-plans";

/**
 * Pro membership on Stripe Billing: one price per plan found by
 * its lookup key, a customer per member, hosted Checkout in subscription
 * mode (Launchpad, Star Power) or payment mode (Limitless), Stripe's own
 * billing portal for cancelling and cards. Charged on the platform account:
 * no destination, no Connect.
 */

/**
 * Part of each create's idempotency key. Changing a plan's price is a
 * deliberate step (archive the old price and free its lookup key, then bump
 * this): within Stripe's 24-hour key window the old key would replay the old,
 * archived price instead of making the new one.
 */
const PRICE_KEY_VERSION = "v1";

/**
 * Finds each plan's active price by lookup key and creates only the missing
 * ones. Each create carries an idempotency key derived from the lookup key, so
 * two processes starting together (or a retry) make one product and one price,
 * not two: the second request replays the first one's answer.
 *
 * `transfer_lookup_key` is deliberately not used. It moves a lookup key from
 * an existing price to the new one, which would silently take the key from a
 * price someone set up by hand (or an older amount) and re-point every new
 * checkout. If a lookup key is already held by a price we did not expect,
 * Stripe refuses the create, and that error is the signal someone must look.
 */
export async function ensureProPrices(stripe: Stripe, plans: readonly ProPriceSpec[]): Promise<Record<ProPlanKey, string>> {
  const found = await stripe.prices.list({ lookup_keys: plans.map((plan) => plan.lookupKey), active: true, expand: ["data.product"], limit: 100 });
  const byLookupKey = new Map(found.data.map((price) => [price.lookup_key, price.id]));
  const ids: Partial<Record<ProPlanKey, string>> = {};
  for (const plan of plans) ids[plan.plan] = byLookupKey.get(plan.lookupKey) ?? (await createPrice(stripe, plan));
  return ids as Record<ProPlanKey, string>;
}

async function createPrice(stripe: Stripe, plan: ProPriceSpec): Promise<string> {
  const key = `${plan.lookupKey}_${PRICE_KEY_VERSION}`;
  const product = await stripe.products.create({ name: plan.productName, metadata: { purpose: "pro", plan: plan.plan } }, { idempotencyKey: `product_${key}` });
  const price = await stripe.prices.create(
    {
      product: product.id,
      currency: plan.currency,
      unit_amount: plan.amount,
      lookup_key: plan.lookupKey,
      metadata: { purpose: "pro", plan: plan.plan },
      ...(plan.interval && { recurring: { interval: plan.interval } }),
    },
    { idempotencyKey: `price_${key}` },
  );
  return price.id;
}

export async function createCustomer(stripe: Stripe, input: { idempotencyKey: string; uid: string; email: string }): Promise<{ customerId: string }> {
  const customer = await stripe.customers.create({ email: input.email, metadata: { uid: input.uid } }, { idempotencyKey: input.idempotencyKey });
  return { customerId: customer.id };
}

export async function createProCheckout(stripe: Stripe, input: ProCheckoutInput): Promise<CheckoutCreated> {
  // On the session for our checkout events, and on what it creates (the subscription or the payment) for the dashboard and the portal.
  const metadata = { purpose: "pro", uid: input.uid, plan: input.plan };
  const session = await stripe.checkout.sessions.create(
    {
      mode: input.mode,
      customer: input.customerId,
      line_items: [{ price: input.priceId, quantity: 1 }],
      client_reference_id: input.uid,
      metadata,
      ...(input.mode === "subscription" ? { subscription_data: { metadata } } : { payment_intent_data: { metadata } }),
      success_url: input.successUrl,
      cancel_url: input.cancelUrl,
    },
    { idempotencyKey: input.idempotencyKey },
  );
  if (!session.url) throw new Error(`Stripe returned checkout session ${session.id} without a URL`);
  return { checkoutId: session.id, url: session.url, expiresAt: new Date(session.expires_at * 1000) };
}

export async function createPortalLink(stripe: Stripe, input: { customerId: string; returnUrl: string }): Promise<{ url: string }> {
  // Short-lived and single-use at Stripe: made afresh on each click, so it needs no idempotency key (nothing lasting is created).
  const session = await stripe.billingPortal.sessions.create({ customer: input.customerId, return_url: input.returnUrl });
  return { url: session.url };
}

/**
 * The period end of a subscription. Since API version 2025-03-31.basil (and
 * so in our pinned 2026-10-28.endive) Stripe keeps `current_period_end` on
 * each subscription ITEM, not on the subscription; a Pro subscription has one
 * item, and with several the latest end is when access stops.
 */
function periodEnd(subscription: Stripe.Subscription): Date {
  const ends = subscription.items.data.map((item) => item.current_period_end);
  if (ends.length === 0) throw new Error(`Stripe subscription ${subscription.id} has no items`);
  return new Date(Math.max(...ends) * 1000);
}

const KNOWN_STATUSES: readonly ProviderSubscriptionStatus[] = ["active", "trialing", "past_due", "canceled", "incomplete", "incomplete_expired", "unpaid", "paused"];

/** A status this SDK does not know (a newer API) grants nothing: read as "incomplete" rather than guessed at. */
function subscriptionStatus(status: Stripe.Subscription.Status): ProviderSubscriptionStatus {
  return (KNOWN_STATUSES as readonly string[]).includes(status) ? (status as ProviderSubscriptionStatus) : "incomplete";
}

function toProviderSubscription(subscription: Stripe.Subscription): ProviderSubscription {
  const price = subscription.items.data[0]?.price;
  return {
    subscriptionId: subscription.id,
    plan: planOfLookupKey(price?.lookup_key),
    status: subscriptionStatus(subscription.status),
    currentPeriodEnd: periodEnd(subscription),
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    created: new Date(subscription.created * 1000),
  };
}

/**
 * Ends a subscription (server/domains/pro/one-subscription.ts decides
 * which): at period end by the same flag the billing portal sets, or at once
 * with proration invoiced now, so the unused time of a second subscription
 * becomes a credit on the customer's balance, which Stripe applies to the
 * kept subscription's next invoices.
 */
export async function endSubscription(stripe: Stripe, input: { idempotencyKey: string; subscriptionId: string; when: "period_end" | "now" }): Promise<void> {
  if (input.when === "period_end") {
    await stripe.subscriptions.update(input.subscriptionId, { cancel_at_period_end: true }, { idempotencyKey: input.idempotencyKey });
  } else {
    await stripe.subscriptions.cancel(input.subscriptionId, { prorate: true, invoice_now: true }, { idempotencyKey: input.idempotencyKey });
  }
}

/**
 * Stripe's truth for a customer, read fresh. Subscriptions of every status
 * (sync decides which count). The Limitless purchase is a completed payment
 * Checkout with our metadata whose payment is paid and whose charge has not
 * been refunded: the payment intent's latest charge, `refunded` true only for
 * a full refund (a partial refund keeps Limitless; a refund of a $50 lifetime
 * plan is all or nothing in practice). A disputed-and-lost payment is refunded
 * by Stripe's side as a dispute, not a refund, and is left to the dispute flow.
 */
export async function readProState(stripe: Stripe, customerId: string): Promise<ProviderProState> {
  const subscriptions = await stripe.subscriptions.list({ customer: customerId, status: "all", expand: ["data.items.data.price"], limit: 100 });
  const sessions = await stripe.checkout.sessions.list({ customer: customerId, status: "complete", limit: 100 });
  let lifetimePurchase: ProviderProState["lifetimePurchase"] = null;
  for (const session of sessions.data) {
    if (session.mode !== "payment" || session.payment_status !== "paid") continue;
    if (session.metadata?.purpose !== "pro" || session.metadata.plan !== "limitless") continue;
    const paymentIntentId = idOf(session.payment_intent);
    if (!paymentIntentId) continue;
    const intent = await stripe.paymentIntents.retrieve(paymentIntentId, { expand: ["latest_charge"] });
    const charge = intent.latest_charge;
    if (intent.status !== "succeeded" || !charge || typeof charge === "string" || charge.refunded) continue;
    lifetimePurchase = { paymentIntentId, paidAt: new Date(charge.created * 1000) };
    break;
  }
  return { customerId, subscriptions: subscriptions.data.map(toProviderSubscription), lifetimePurchase };
}
