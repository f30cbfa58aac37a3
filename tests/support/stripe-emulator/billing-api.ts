import type Stripe from "stripe";
import { newCustomer, newPortalSession, newPrice, newProduct, setCancelAtPeriodEnd } from "#tests/support/stripe-emulator/billing-objects";
import { invalidRequest, requiredParam } from "#tests/support/stripe-emulator/errors";
import { newEvent } from "#tests/support/stripe-emulator/events";
import { nowSeconds } from "#tests/support/stripe-emulator/fixtures";
import { metadataOf, str, strings, type FormObject } from "#tests/support/stripe-emulator/form";
import { get, integer, limitOf, ok, retrieve, route, type Handler, type Route } from "#tests/support/stripe-emulator/handler";
import { newCheckoutSession } from "#tests/support/stripe-emulator/objects";

/**
 * Stripe Billing, as far as Pro membership uses it: products, prices found by
 * lookup key, customers, Checkout with a price in payment or subscription
 * mode, subscriptions (list, retrieve, cancel at period end, cancel),
 * invoices and billing portal sessions. Lists are newest first, as at Stripe.
 */

const newestFirst = <T>(items: Iterable<T>) => [...items].reverse();
const bool = (params: FormObject, key: string) => (str(params, key) === undefined ? undefined : str(params, key) === "true");
const nested = (params: FormObject, key: string): FormObject => {
  const value = params[key];
  return value && typeof value === "object" && !Array.isArray(value) ? (value as FormObject) : {};
};

const createProduct: Handler = ({ store }, { params }) => {
  const name = str(params, "name");
  if (!name) throw requiredParam("name");
  const product = newProduct({ name, metadata: metadataOf(params) });
  store.products.set(product.id, product);
  return ok(product);
};

const INTERVALS = new Set(["day", "week", "month", "year"]);

const createPrice: Handler = ({ store }, { params }) => {
  const currency = str(params, "currency");
  if (!currency) throw requiredParam("currency");
  const unitAmount = integer(params, "unit_amount", "unit_amount");
  if (unitAmount === undefined) throw requiredParam("unit_amount");
  let productId = str(params, "product");
  if (productId) {
    get(store.products, "product", productId);
  } else {
    const name = str(params, "product_data", "name");
    if (!name) throw invalidRequest("You must specify either `product` or `product_data` when creating a price.", { param: "product" });
    const product = newProduct({ name, metadata: {} });
    store.products.set(product.id, product);
    productId = product.id;
  }
  const interval = str(params, "recurring", "interval");
  if (interval !== undefined && !INTERVALS.has(interval)) throw invalidRequest(`Invalid recurring[interval]: must be one of day, week, month, or year`, { param: "recurring[interval]" });
  const lookupKey = str(params, "lookup_key") ?? null;
  const holder = lookupKey ? [...store.prices.values()].find((price) => price.active && price.lookup_key === lookupKey) : undefined;
  if (holder) {
    if (!bool(params, "transfer_lookup_key")) {
      throw invalidRequest(`A price (\`${holder.id}\`) already uses that lookup key. Set \`transfer_lookup_key\` to move it to this price.`, { param: "lookup_key" });
    }
    holder.lookup_key = null;
  }
  const price = newPrice({ product: productId, currency, unitAmount, lookupKey, interval: (interval as Stripe.Price.Recurring.Interval | undefined) ?? null, metadata: metadataOf(params) });
  store.prices.set(price.id, price);
  return ok(price);
};

const listPrices: Handler = ({ store }, { params }) => {
  const lookupKeys = strings(params, "lookup_keys");
  const active = bool(params, "active");
  const matching = newestFirst(store.prices.values()).filter(
    (price) => (lookupKeys.length === 0 || (price.lookup_key !== null && lookupKeys.includes(price.lookup_key))) && (active === undefined || price.active === active),
  );
  return ok(store.list("/v1/prices", matching, strings(params, "expand"), limitOf(params)));
};

const createCustomer: Handler = ({ store }, { params }) => {
  const customer = newCustomer({ email: str(params, "email") ?? null, metadata: metadataOf(params) });
  store.customers.set(customer.id, customer);
  return ok(customer);
};

const CHECKOUT_MAX_LIFETIME = 24 * 60 * 60;

/** Checkout for a price made beforehand (Pro): the platform's own sale, a one-time payment or a subscription. */
export const createPriceCheckoutSession: Handler = ({ store, checkoutPayments, checkoutSubscriptions }, { params, baseUrl }) => {
  const mode = str(params, "mode");
  if (mode !== "payment" && mode !== "subscription") throw invalidRequest("The emulator supports mode=payment and mode=subscription.", { param: "mode" });
  const successUrl = str(params, "success_url");
  if (!successUrl) throw requiredParam("success_url");
  const lineItems = params.line_items;
  if (!Array.isArray(lineItems) || lineItems.length !== 1) throw invalidRequest("The emulator takes exactly one line item.", { param: "line_items" });
  const price = get(store.prices, "price", str(params, "line_items", "0", "price"));
  if (!price.active) throw invalidRequest(`The price specified is inactive. This field only accepts active prices.`, { param: "line_items[0][price]" });
  const quantity = integer(params, "line_items[0][quantity]", "line_items", "0", "quantity") ?? 1;
  if (mode === "subscription" && price.type !== "recurring") {
    throw invalidRequest("You must provide at least one recurring price in `subscription` mode when using prices.", { param: "line_items[0][price]" });
  }
  if (mode === "payment" && price.type === "recurring") {
    throw invalidRequest("You specified `payment` mode but passed a recurring price. Either switch to `subscription` mode or use only one-time prices.", { param: "mode" });
  }
  if (mode === "subscription" && params.payment_intent_data) throw invalidRequest("You can not pass `payment_intent_data` in `subscription` mode.", { param: "payment_intent_data" });
  if (mode === "payment" && params.subscription_data) throw invalidRequest("You can not pass `subscription_data` in `payment` mode.", { param: "subscription_data" });
  const customerId = str(params, "customer") ?? null;
  const customer = customerId ? get(store.customers, "customer", customerId) : null;
  const amount = (price.unit_amount ?? 0) * quantity;
  const session = newCheckoutSession(
    {
      amount,
      currency: price.currency,
      clientReferenceId: str(params, "client_reference_id") ?? null,
      customerEmail: customer ? null : (str(params, "customer_email") ?? null),
      metadata: metadataOf(params),
      successUrl,
      cancelUrl: str(params, "cancel_url") ?? null,
      expiresAt: integer(params, "expires_at", "expires_at") ?? nowSeconds() + CHECKOUT_MAX_LIFETIME,
      mode,
      customer: customerId,
    },
    (id) => `${baseUrl}/checkout/pay/${id}`,
  );
  store.checkoutSessions.set(session.id, session);
  if (mode === "subscription") {
    checkoutSubscriptions.set(session.id, { priceId: price.id, metadata: metadataOf(nested(params, "subscription_data")) });
  } else {
    checkoutPayments.set(session.id, {
      amount,
      currency: price.currency,
      applicationFeeAmount: null,
      destination: null,
      metadata: metadataOf(nested(params, "payment_intent_data")),
      receiptEmail: customer?.email ?? null,
      customer: customerId,
    });
  }
  return ok(session);
};

const listCheckoutSessions: Handler = ({ store }, { params }) => {
  const customer = str(params, "customer");
  const status = str(params, "status");
  const matching = newestFirst(store.checkoutSessions.values()).filter((session) => (!customer || session.customer === customer) && (!status || session.status === status));
  return ok(store.list("/v1/checkout/sessions", matching, strings(params, "expand"), limitOf(params)));
};

/** Without `status`, Stripe lists every subscription that is not canceled; `all` includes those. */
const listSubscriptions: Handler = ({ store }, { params }) => {
  const customer = str(params, "customer");
  const status = str(params, "status");
  const matching = newestFirst(store.subscriptions.values()).filter(
    (subscription) =>
      (!customer || subscription.customer === customer) &&
      (status === "all" || (status ? subscription.status === status : subscription.status !== "canceled")),
  );
  return ok(store.list("/v1/subscriptions", matching, strings(params, "expand"), limitOf(params)));
};

const updateSubscription: Handler = ({ store }, { ids, params, idempotencyKey }) => {
  const subscription = get(store.subscriptions, "subscription", ids[0]);
  if (subscription.status === "canceled") throw invalidRequest("A canceled subscription can only update its cancellation_details and metadata.", { param: "cancel_at_period_end" });
  const cancelAtPeriodEnd = bool(params, "cancel_at_period_end");
  if (cancelAtPeriodEnd !== undefined) setCancelAtPeriodEnd(subscription, cancelAtPeriodEnd);
  if (params.metadata) subscription.metadata = { ...subscription.metadata, ...metadataOf(params) };
  return ok(store.expanded(subscription, strings(params, "expand")), [newEvent("customer.subscription.updated", subscription, { idempotencyKey })]);
};

/** Cancels at once (the portal's "cancel now", or our own API call): ended now, `customer.subscription.deleted`. */
const cancelSubscription: Handler = ({ store }, { ids }) => {
  const subscription = get(store.subscriptions, "subscription", ids[0]);
  if (subscription.status === "canceled") throw invalidRequest(`This subscription has already been canceled.`, { code: "resource_missing" });
  const now = nowSeconds();
  Object.assign(subscription, { status: "canceled", canceled_at: now, ended_at: now, cancel_at: null, cancel_at_period_end: false } satisfies Partial<Stripe.Subscription>);
  return ok(subscription, [newEvent("customer.subscription.deleted", subscription)]);
};

/** As Stripe: deleting a customer cancels their subscriptions at once, then the customer is gone. */
const deleteCustomer: Handler = ({ store }, { ids }) => {
  const customer = get(store.customers, "customer", ids[0]);
  const now = nowSeconds();
  const events = [];
  for (const subscription of store.subscriptions.values()) {
    if (subscription.customer !== customer.id || subscription.status === "canceled") continue;
    Object.assign(subscription, { status: "canceled", canceled_at: now, ended_at: now, cancel_at: null, cancel_at_period_end: false } satisfies Partial<Stripe.Subscription>);
    events.push(newEvent("customer.subscription.deleted", subscription));
  }
  store.customers.delete(customer.id);
  return ok({ id: customer.id, object: "customer", deleted: true }, events);
};

const createPortalSession: Handler = ({ store }, { params, baseUrl }) => {
  const customer = str(params, "customer");
  if (!customer) throw requiredParam("customer");
  get(store.customers, "customer", customer);
  const session = newPortalSession({ customer, returnUrl: str(params, "return_url") ?? null }, (id) => `${baseUrl}/billing/portal/${id}`);
  store.portalSessions.set(session.id, session);
  return ok(session);
};

export const BILLING_ROUTES: Route[] = [
  route("POST", "/v1/products", createProduct),
  route("GET", "/v1/products/:id", retrieve((store) => store.products, "product")),
  route("POST", "/v1/prices", createPrice),
  route("GET", "/v1/prices", listPrices),
  route("GET", "/v1/prices/:id", retrieve((store) => store.prices, "price")),
  route("POST", "/v1/customers", createCustomer),
  route("GET", "/v1/customers/:id", retrieve((store) => store.customers, "customer")),
  route("DELETE", "/v1/customers/:id", deleteCustomer),
  route("GET", "/v1/checkout/sessions", listCheckoutSessions),
  route("GET", "/v1/subscriptions", listSubscriptions),
  route("GET", "/v1/subscriptions/:id", retrieve((store) => store.subscriptions, "subscription")),
  route("POST", "/v1/subscriptions/:id", updateSubscription),
  route("DELETE", "/v1/subscriptions/:id", cancelSubscription),
  route("GET", "/v1/invoices/:id", retrieve((store) => store.invoices, "invoice")),
  route("POST", "/v1/billing_portal/sessions", createPortalSession),
];
