import type Stripe from "stripe";
import { newCustomer, newPortalSession, newPrice, newProduct, periodEndAfter, planOf, setCancelAtPeriodEnd } from "#tests/support/stripe-emulator/billing-objects";
import { invoiceNow } from "#tests/support/stripe-emulator/billing-control";
import { invalidRequest, requiredParam } from "#tests/support/stripe-emulator/errors";
import { newEvent, type EmulatorEvent } from "#tests/support/stripe-emulator/events";
import { nowSeconds } from "#tests/support/stripe-emulator/fixtures";
import { metadataOf, str, strings, type FormObject } from "#tests/support/stripe-emulator/form";
import { get, integer, limitOf, ok, retrieve, route, type ApiContext, type Handler, type Route } from "#tests/support/stripe-emulator/handler";
import type { EmulatorStore } from "#tests/support/stripe-emulator/store";
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

const CHECKOUT_MIN_LIFETIME = 30 * 60;
const CHECKOUT_MAX_LIFETIME = 24 * 60 * 60;

/**
 * A price made inline by `price_data` (`line_items[0][price_data]` in Checkout, `items[0][price_data]` on a
 * subscription): Stripe makes an inactive price for that use only, and with `product_data` its product too.
 */
function inlinePrice(store: EmulatorStore, data: FormObject, param: string, options: { recurring: boolean }): Stripe.Price {
  const currency = str(data, "currency");
  if (!currency) throw requiredParam(`${param}[currency]`);
  const unitAmount = integer(data, `${param}[unit_amount]`, "unit_amount");
  if (unitAmount === undefined) throw requiredParam(`${param}[unit_amount]`);
  let productId = str(data, "product");
  if (productId) {
    get(store.products, "product", productId);
  } else {
    const name = str(data, "product_data", "name");
    if (!name) throw requiredParam(`${param}[product_data][name]`);
    const product = newProduct({ name, metadata: metadataOf(nested(data, "product_data")) });
    store.products.set(product.id, product);
    productId = product.id;
  }
  const interval = str(data, "recurring", "interval");
  if (options.recurring && interval === undefined) throw requiredParam(`${param}[recurring][interval]`);
  if (interval !== undefined && !INTERVALS.has(interval)) throw invalidRequest(`Invalid ${param}[recurring][interval]: must be one of day, week, month, or year`, { param: `${param}[recurring][interval]` });
  const price = newPrice({ product: productId, currency, unitAmount, lookupKey: null, interval: (interval as Stripe.Price.Recurring.Interval | undefined) ?? null, metadata: {}, active: false });
  store.prices.set(price.id, price);
  return price;
}

/**
 * `subscription_data[transfer_data][destination]` and `[application_fee_percent]` of a subscription checkout: every
 * invoice of the subscription pays the connected account less that percentage (a membership).
 */
function subscriptionDestination(store: EmulatorStore, data: FormObject): { destination: string | null; applicationFeePercent: number | null } {
  const destination = str(data, "transfer_data", "destination") ?? null;
  const rawPercent = str(data, "application_fee_percent");
  if (destination !== null) {
    const account = store.accounts.get(destination);
    if (!account) throw invalidRequest(`No such destination: '${destination}'`, { param: "subscription_data[transfer_data][destination]" });
    if (account.capabilities?.transfers !== "active") {
      throw invalidRequest("Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments", {
        param: "subscription_data[transfer_data][destination]",
      });
    }
  }
  if (rawPercent === undefined) return { destination, applicationFeePercent: null };
  const percent = Number(rawPercent);
  if (!/^\d+(\.\d{1,2})?$/.test(rawPercent) || percent > 100) {
    throw invalidRequest("application_fee_percent must be a number between 0 and 100 with at most two decimal places.", { param: "subscription_data[application_fee_percent]" });
  }
  if (destination === null) {
    throw invalidRequest("Can only apply an application_fee_percent when the subscription pays a connected account (using `transfer_data[destination]` or the Stripe-Account header).", {
      param: "subscription_data[application_fee_percent]",
    });
  }
  return { destination, applicationFeePercent: percent };
}

/**
 * Checkout for a price made beforehand (Pro) or made inline by `price_data` (a membership): a one-time
 * payment or a subscription, the platform's own sale or, with `subscription_data[transfer_data]`, a
 * subscription paying a connected account.
 */
export const createPriceCheckoutSession: Handler = ({ store, checkoutPayments, checkoutSubscriptions }, { params, baseUrl }) => {
  const mode = str(params, "mode");
  if (mode !== "payment" && mode !== "subscription") throw invalidRequest("The emulator supports mode=payment and mode=subscription.", { param: "mode" });
  const successUrl = str(params, "success_url");
  if (!successUrl) throw requiredParam("success_url");
  const lineItems = params.line_items;
  if (!Array.isArray(lineItems) || lineItems.length !== 1) throw invalidRequest("The emulator takes exactly one line item.", { param: "line_items" });
  const line = lineItems[0] as FormObject;
  const price = str(line, "price")
    ? get(store.prices, "price", str(line, "price"))
    : inlinePrice(store, nested(line, "price_data"), "line_items[0][price_data]", { recurring: mode === "subscription" });
  if (str(line, "price") && !price.active) throw invalidRequest(`The price specified is inactive. This field only accepts active prices.`, { param: "line_items[0][price]" });
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
  if (customerId && str(params, "customer_email")) throw invalidRequest("You may only specify one of these parameters: customer, customer_email.", { param: "customer_email" });
  const amount = (price.unit_amount ?? 0) * quantity;
  const now = nowSeconds();
  const expiresAt = integer(params, "expires_at", "expires_at") ?? now + CHECKOUT_MAX_LIFETIME;
  if (expiresAt < now + CHECKOUT_MIN_LIFETIME || expiresAt > now + CHECKOUT_MAX_LIFETIME) {
    throw invalidRequest("The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.", { param: "expires_at" });
  }
  const paysAccount = mode === "subscription" ? subscriptionDestination(store, nested(params, "subscription_data")) : null;
  const session = newCheckoutSession(
    {
      amount,
      currency: price.currency,
      clientReferenceId: str(params, "client_reference_id") ?? null,
      customerEmail: customer ? null : (str(params, "customer_email") ?? null),
      metadata: metadataOf(params),
      successUrl,
      cancelUrl: str(params, "cancel_url") ?? null,
      expiresAt,
      mode,
      customer: customerId,
    },
    (id) => `${baseUrl}/checkout/pay/${id}`,
  );
  store.checkoutSessions.set(session.id, session);
  if (mode === "subscription") {
    checkoutSubscriptions.set(session.id, { priceId: price.id, metadata: metadataOf(nested(params, "subscription_data")), ...paysAccount });
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

const PRORATION_BEHAVIORS = new Set(["none", "create_prorations", "always_invoice"]);

/**
 * A new price for an item (`items[n][id]` with `items[n][price]` or `[price_data]`). The emulator does not
 * prorate, so it takes `proration_behavior=none` only. As at Stripe, the same interval keeps the billing
 * cycle (the new price from the next renewal); another interval resets the cycle to now and invoices the
 * new price at once (`billing_reason` subscription_update) — unless `trial_end` defers it: the
 * subscription is then trialing until that moment, its period ends there, and the new price and
 * interval are first charged at that renewal (Stripe's way to change an interval without charging now).
 */
function replaceItems(context: ApiContext, subscription: Stripe.Subscription, params: FormObject, trialEnd: number | undefined): EmulatorEvent[] {
  const items = params.items;
  if (!Array.isArray(items)) return [];
  const proration = str(params, "proration_behavior") ?? "create_prorations";
  if (!PRORATION_BEHAVIORS.has(proration)) throw invalidRequest(`Invalid proration_behavior: must be one of none, create_prorations, or always_invoice`, { param: "proration_behavior" });
  if (proration !== "none") throw invalidRequest("The emulator does not prorate: pass proration_behavior=none to change a price.", { param: "proration_behavior" });
  let cycleReset = false;
  items.forEach((raw, index) => {
    const change = raw as FormObject;
    const itemId = str(change, "id");
    if (!itemId) throw invalidRequest("The emulator only replaces the price of an existing item: pass its `id`.", { param: `items[${index}][id]` });
    const item = subscription.items.data.find((candidate) => candidate.id === itemId);
    if (!item) throw invalidRequest(`Invalid subscription_item: '${itemId}' is not an item of this subscription`, { param: `items[${index}][id]` });
    const price = str(change, "price")
      ? get(context.store.prices, "price", str(change, "price"))
      : change.price_data
        ? inlinePrice(context.store, nested(change, "price_data"), `items[${index}][price_data]`, { recurring: true })
        : null;
    if (!price) return;
    if (price.type !== "recurring") throw invalidRequest("The price specified is not recurring.", { param: `items[${index}][price]` });
    if (price.currency !== subscription.currency) throw invalidRequest(`The price's currency (${price.currency}) must match the subscription's (${subscription.currency}).`, { param: `items[${index}][price]` });
    if (price.recurring!.interval !== item.price.recurring!.interval) cycleReset = true;
    item.price = structuredClone(price);
    item.plan = planOf(price);
  });
  if (!cycleReset) return [];
  if (trialEnd !== undefined) {
    for (const item of subscription.items.data) item.current_period_end = trialEnd;
    subscription.billing_cycle_anchor = trialEnd;
    return [];
  }
  const now = nowSeconds();
  for (const item of subscription.items.data) {
    item.current_period_start = now;
    item.current_period_end = periodEndAfter(now, item.price.recurring!.interval);
  }
  subscription.billing_cycle_anchor = now;
  return invoiceNow(context, subscription, "subscription_update");
}

const updateSubscription: Handler = (context, { ids, params, idempotencyKey }) => {
  const { store } = context;
  const subscription = get(store.subscriptions, "subscription", ids[0]);
  if (subscription.status === "canceled") throw invalidRequest("A canceled subscription can only update its cancellation_details and metadata.", { param: "cancel_at_period_end" });
  const cancelAtPeriodEnd = bool(params, "cancel_at_period_end");
  if (cancelAtPeriodEnd !== undefined) setCancelAtPeriodEnd(subscription, cancelAtPeriodEnd);
  if (params.metadata) subscription.metadata = { ...subscription.metadata, ...metadataOf(params) };
  const trialEnd = integer(params, "trial_end", "trial_end");
  if (trialEnd !== undefined) {
    if (trialEnd <= nowSeconds()) throw invalidRequest("Invalid timestamp: must be in the future.", { param: "trial_end" });
    Object.assign(subscription, { trial_end: trialEnd, status: subscription.status === "active" ? "trialing" : subscription.status } satisfies Partial<Stripe.Subscription>);
  }
  const invoiced = replaceItems(context, subscription, params, trialEnd).filter((event) => event.type !== "customer.subscription.updated");
  return ok(store.expanded(subscription, strings(params, "expand")), [newEvent("customer.subscription.updated", subscription, { idempotencyKey }), ...invoiced]);
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

/**
 * An invoice as Stripe answers it: `payments` is includable, there only when asked for (`expand[]=payments`,
 * `expand[]=data.payments` in a list), as the list of its invoice payments.
 */
function invoiceView(store: EmulatorStore, invoice: Stripe.Invoice, expand: string[]): Stripe.Invoice {
  const copy = store.expanded(invoice, expand.filter((path) => path !== "payments"));
  if (!expand.includes("payments")) return copy;
  const payments = newestFirst(store.invoicePayments.values()).filter((payment) => payment.invoice === invoice.id);
  return { ...copy, payments: { object: "list", data: structuredClone(payments), has_more: false, url: `/v1/invoice_payments?invoice=${invoice.id}` } };
}

/** A page of a newest-first list: `starting_after` and `limit`, as the SDK's auto-pagination walks it. */
function page<T extends { id: string }>(params: FormObject, url: string, items: T[], view: (item: T) => T) {
  const after = str(params, "starting_after");
  const start = after ? items.findIndex((item) => item.id === after) + 1 : 0;
  const limit = limitOf(params);
  return { object: "list" as const, data: items.slice(start, start + limit).map(view), has_more: start + limit < items.length, url };
}

const listInvoices: Handler = ({ store }, { params }) => {
  const subscription = str(params, "subscription");
  const customer = str(params, "customer");
  const status = str(params, "status");
  const expand = strings(params, "expand")
    .filter((path) => path.startsWith("data."))
    .map((path) => path.slice("data.".length));
  const matching = newestFirst(store.invoices.values()).filter(
    (invoice) =>
      (!subscription || invoice.parent?.subscription_details?.subscription === subscription) && (!customer || invoice.customer === customer) && (!status || invoice.status === status),
  );
  return ok(page(params, "/v1/invoices", matching, (invoice) => invoiceView(store, invoice, expand)));
};

const retrieveInvoice: Handler = ({ store }, { ids, params }) => ok(invoiceView(store, get(store.invoices, "invoice", ids[0]), strings(params, "expand")));

const listInvoicePayments: Handler = ({ store }, { params }) => {
  const invoice = str(params, "invoice");
  const intent = str(params, "payment", "payment_intent");
  const matching = newestFirst(store.invoicePayments.values()).filter((payment) => (!invoice || payment.invoice === invoice) && (!intent || payment.payment.payment_intent === intent));
  return ok(page(params, "/v1/invoice_payments", matching, (payment) => store.expanded(payment, [])));
};

const FLOW_TYPES = new Set(["payment_method_update", "subscription_cancel", "subscription_update", "subscription_update_confirm"]);

/** `flow_data[type]=payment_method_update` opens the portal on its card form (the only flow the emulator runs), then `after_completion`. */
function portalFlow(params: FormObject): Stripe.BillingPortal.Session.Flow | null {
  const data = nested(params, "flow_data");
  const type = str(data, "type");
  if (type === undefined) return null;
  if (!FLOW_TYPES.has(type)) throw invalidRequest(`Invalid flow_data[type]: must be one of ${[...FLOW_TYPES].join(", ")}`, { param: "flow_data[type]" });
  if (type !== "payment_method_update") throw invalidRequest("The emulator runs the payment_method_update flow only.", { param: "flow_data[type]" });
  const after = nested(data, "after_completion");
  const afterType = str(after, "type") ?? "portal_homepage";
  const returnUrl = str(after, "redirect", "return_url");
  if (afterType === "redirect" && !returnUrl) throw requiredParam("flow_data[after_completion][redirect][return_url]");
  return {
    type: "payment_method_update",
    after_completion: {
      type: afterType as Stripe.BillingPortal.Session.Flow.AfterCompletion.Type,
      hosted_confirmation: afterType === "hosted_confirmation" ? { custom_message: null } : null,
      redirect: afterType === "redirect" ? { return_url: returnUrl! } : null,
    },
    customer_update: null,
    subscription_cancel: null,
    subscription_pause: null,
    subscription_update: null,
    subscription_update_confirm: null,
  } as Stripe.BillingPortal.Session.Flow;
}

const createPortalSession: Handler = ({ store }, { params, baseUrl }) => {
  const customer = str(params, "customer");
  if (!customer) throw requiredParam("customer");
  get(store.customers, "customer", customer);
  const session = newPortalSession({ customer, returnUrl: str(params, "return_url") ?? null, flow: portalFlow(params) }, (id) => `${baseUrl}/billing/portal/${id}`);
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
  route("GET", "/v1/invoices", listInvoices),
  route("GET", "/v1/invoices/:id", retrieveInvoice),
  route("GET", "/v1/invoice_payments", listInvoicePayments),
  route("GET", "/v1/invoice_payments/:id", retrieve((store) => store.invoicePayments, "invoice_payment")),
  route("POST", "/v1/billing_portal/sessions", createPortalSession),
];
