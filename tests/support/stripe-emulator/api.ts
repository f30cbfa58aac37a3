import type Stripe from "stripe";
import { BALANCE_TRANSACTION_ROUTES } from "#tests/support/stripe-emulator/balance-transactions-api";
import { invalidRequest, requiredParam, StripeApiError } from "#tests/support/stripe-emulator/errors";
import { newEvent } from "#tests/support/stripe-emulator/events";
import { newId, nowSeconds } from "#tests/support/stripe-emulator/fixtures";
import { metadataOf, str, type FormObject } from "#tests/support/stripe-emulator/form";
import {
  newAccountLink,
  newBalanceTransaction,
  newCheckoutSession,
  newExpressAccount,
  newLoginLink,
  newRefund,
} from "#tests/support/stripe-emulator/objects";
import { get, integer, limitOf, ok, retrieve, route, type Handler, type Route } from "#tests/support/stripe-emulator/handler";
import { BILLING_ROUTES, createPriceCheckoutSession } from "#tests/support/stripe-emulator/billing-api";
import { TRANSFER_ROUTES } from "#tests/support/stripe-emulator/transfers-api";

export type { ApiCall, ApiContext, ApiResult } from "#tests/support/stripe-emulator/handler";

const BUSINESS_TYPES = new Set(["individual", "company", "non_profit", "government_entity"]);

const createAccount: Handler = ({ store }, { params }) => {
  const type = str(params, "type");
  if (type !== "express") throw invalidRequest("The emulator creates Connect Express accounts only (type=express).", { param: "type" });
  const businessType = str(params, "business_type");
  if (businessType !== undefined && !BUSINESS_TYPES.has(businessType)) {
    throw invalidRequest(`Invalid business_type: must be one of ${[...BUSINESS_TYPES].join(", ")}`, { param: "business_type" });
  }
  const account = newExpressAccount({
    email: str(params, "email") ?? null,
    businessType: (businessType as Stripe.Account.BusinessType | undefined) ?? null,
    metadata: metadataOf(params),
  });
  store.accounts.set(account.id, account);
  return ok(account);
};

const createAccountLink: Handler = ({ store }, { params, baseUrl }) => {
  const accountId = str(params, "account");
  if (!accountId) throw requiredParam("account");
  get(store.accounts, "account", accountId);
  if (str(params, "type") !== "account_onboarding") throw invalidRequest("The emulator makes account_onboarding links only.", { param: "type" });
  const returnUrl = str(params, "return_url");
  const refreshUrl = str(params, "refresh_url");
  if (!returnUrl) throw requiredParam("return_url");
  if (!refreshUrl) throw requiredParam("refresh_url");
  const token = newId("onb", 20);
  store.onboardingLinks.set(token, { accountId, returnUrl, refreshUrl });
  return ok(newAccountLink(`${baseUrl}/connect/onboarding/${token}`));
};

const createLoginLink: Handler = ({ store }, { ids, baseUrl }) => {
  const account = get(store.accounts, "account", ids[0]);
  if (!account.details_submitted) throw invalidRequest("Cannot create a login link for an account that has not completed onboarding.", { param: "account" });
  return ok(newLoginLink(`${baseUrl}/express/${account.id}`));
};

const CHECKOUT_MIN_LIFETIME = 30 * 60;
const CHECKOUT_MAX_LIFETIME = 24 * 60 * 60;

const createCheckoutSession: Handler = (context, call) => {
  // A price made beforehand (Pro), or any subscription (a membership's price is made inline by price_data).
  if (str(call.params, "line_items", "0", "price") || str(call.params, "mode") === "subscription") return createPriceCheckoutSession(context, call);
  const { store, checkoutPayments } = context;
  const { params, baseUrl } = call;
  if (str(params, "mode") !== "payment") throw invalidRequest("The emulator supports mode=payment only.", { param: "mode" });
  const successUrl = str(params, "success_url");
  if (!successUrl) throw requiredParam("success_url");
  const lineItems = params.line_items;
  if (!Array.isArray(lineItems) || lineItems.length !== 1) throw invalidRequest("The emulator takes exactly one line item.", { param: "line_items" });
  const currency = str(params, "line_items", "0", "price_data", "currency");
  const unitAmount = integer(params, "line_items[0][price_data][unit_amount]", "line_items", "0", "price_data", "unit_amount");
  const quantity = integer(params, "line_items[0][quantity]", "line_items", "0", "quantity") ?? 1;
  if (!currency) throw requiredParam("line_items[0][price_data][currency]");
  if (unitAmount === undefined) throw requiredParam("line_items[0][price_data][unit_amount]");
  if (!str(params, "line_items", "0", "price_data", "product_data", "name")) throw requiredParam("line_items[0][price_data][product_data][name]");
  const amount = unitAmount * quantity;
  if (currency === "usd" && amount < 50) throw invalidRequest("The Checkout Session's total amount due must add up to at least $0.50 usd", { param: "line_items" });

  // A destination charge (a tip) with transfer_data; without, a plain charge the platform keeps on its
  // own balance (a deal's held payment), moved on later by transfers of its transfer_group.
  const destination = str(params, "payment_intent_data", "transfer_data", "destination") ?? null;
  if (destination !== null) {
    const account = store.accounts.get(destination);
    if (!account) throw invalidRequest(`No such destination: '${destination}'`, { param: "payment_intent_data[transfer_data][destination]" });
    if (account.capabilities?.transfers !== "active") {
      throw invalidRequest("Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments", {
        param: "payment_intent_data[transfer_data][destination]",
      });
    }
  }
  const applicationFee = integer(params, "payment_intent_data[application_fee_amount]", "payment_intent_data", "application_fee_amount");
  if (applicationFee !== undefined && destination === null) {
    throw invalidRequest(
      "Can only apply an application_fee_amount when the PaymentIntent is attempting a direct payment (using an OAuth key or Stripe-Account header) or destination payment (using `transfer_data[destination]`).",
      { param: "payment_intent_data[application_fee_amount]" },
    );
  }
  if (applicationFee !== undefined && applicationFee > amount) {
    throw invalidRequest("The application fee amount cannot be greater than the total amount.", { param: "payment_intent_data[application_fee_amount]" });
  }
  const now = nowSeconds();
  const expiresAt = integer(params, "expires_at", "expires_at") ?? now + CHECKOUT_MAX_LIFETIME;
  if (expiresAt < now + CHECKOUT_MIN_LIFETIME || expiresAt > now + CHECKOUT_MAX_LIFETIME) {
    throw invalidRequest("The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.", { param: "expires_at" });
  }
  const customerEmail = str(params, "customer_email") ?? null;
  const session = newCheckoutSession(
    {
      amount,
      currency,
      clientReferenceId: str(params, "client_reference_id") ?? null,
      customerEmail,
      metadata: metadataOf(params),
      successUrl,
      cancelUrl: str(params, "cancel_url") ?? null,
      expiresAt,
    },
    (id) => `${baseUrl}/checkout/pay/${id}`,
  );
  store.checkoutSessions.set(session.id, session);
  const intentMetadata = params.payment_intent_data && typeof params.payment_intent_data === "object" ? metadataOf(params.payment_intent_data as FormObject) : {};
  checkoutPayments.set(session.id, {
    amount,
    currency,
    applicationFeeAmount: applicationFee ?? null,
    destination,
    transferGroup: str(params, "payment_intent_data", "transfer_group") ?? null,
    metadata: intentMetadata,
    receiptEmail: customerEmail,
  });
  return ok(session);
};

const createRefund: Handler = ({ store, refundStatus }, { params, idempotencyKey }) => {
  const intentId = str(params, "payment_intent");
  const chargeParam = str(params, "charge");
  if (!intentId && !chargeParam) throw invalidRequest("One of the following params should be provided for this request: payment_intent or charge.");
  let chargeId = chargeParam;
  if (intentId) {
    const intent = get(store.paymentIntents, "payment_intent", intentId);
    if (intent.status !== "succeeded" || typeof intent.latest_charge !== "string") {
      throw invalidRequest(`This PaymentIntent (${intent.id}) does not have a successful charge to refund.`, { param: "payment_intent" });
    }
    chargeId = intent.latest_charge;
  }
  const charge = get(store.charges, "charge", chargeId);
  if (charge.refunded) throw invalidRequest(`Charge ${charge.id} has already been refunded.`, { code: "charge_already_refunded" });
  if (charge.disputed) throw invalidRequest(`Charge ${charge.id} has been charged back; cannot issue a refund.`, { code: "charge_disputed" });
  const remaining = charge.amount - charge.amount_refunded;
  const amount = integer(params, "amount", "amount") ?? remaining;
  if (amount < 1 || amount > remaining) {
    throw invalidRequest(`Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${(remaining / 100).toFixed(2)})`, { param: "amount" });
  }
  const transaction = newBalanceTransaction({
    amount: -amount,
    fee: 0,
    currency: charge.currency,
    source: "",
    type: "refund",
    reportingCategory: "refund",
    description: "REFUND FOR CHARGE",
  });
  const refund = newRefund(charge, {
    amount,
    status: refundStatus(),
    balanceTransaction: transaction.id,
    metadata: metadataOf(params),
    reverseTransfer: str(params, "reverse_transfer") === "true",
  });
  transaction.source = refund.id;
  store.balanceTransactions.set(transaction.id, transaction);
  store.refunds.set(refund.id, refund);
  charge.amount_refunded += amount;
  charge.refunded = charge.amount_refunded === charge.amount;
  charge.refunds = { ...charge.refunds!, data: [refund, ...(charge.refunds?.data ?? [])] };
  return ok(refund, [newEvent("refund.created", refund, { idempotencyKey }), newEvent("charge.refunded", charge, { idempotencyKey })]);
};

/** Refunds of a payment or charge, newest first, as Stripe lists them. */
const listRefunds: Handler = ({ store }, { params }) => {
  const intentId = str(params, "payment_intent");
  const chargeId = str(params, "charge");
  const limit = limitOf(params);
  const matching = [...store.refunds.values()]
    .filter((refund) => (!intentId || refund.payment_intent === intentId) && (!chargeId || refund.charge === chargeId))
    .reverse();
  return ok({ object: "list", data: matching.slice(0, limit), has_more: matching.length > limit, url: "/v1/refunds" });
};

/** As Stripe: an account that still holds a balance cannot be deleted (the emulator marks one with metadata.balance). */
const deleteAccount: Handler = ({ store }, { ids }) => {
  const account = get(store.accounts, "account", ids[0]);
  if (account.metadata?.balance && account.metadata.balance !== "0") {
    throw invalidRequest("This account cannot be deleted because it has a non-zero balance.", { code: "balance_insufficient" });
  }
  store.accounts.delete(account.id);
  return ok({ id: account.id, object: "account", deleted: true });
};

export const ROUTES: Route[] = [
  route("POST", "/v1/accounts", createAccount),
  route("GET", "/v1/accounts/:id", retrieve((store) => store.accounts, "account")),
  route("DELETE", "/v1/accounts/:id", deleteAccount),
  route("POST", "/v1/accounts/:id/login_links", createLoginLink),
  route("POST", "/v1/account_links", createAccountLink),
  route("POST", "/v1/checkout/sessions", createCheckoutSession),
  route("GET", "/v1/checkout/sessions/:id", retrieve((store) => store.checkoutSessions, "checkout.session")),
  route("GET", "/v1/payment_intents/:id", retrieve((store) => store.paymentIntents, "payment_intent")),
  route("GET", "/v1/charges/:id", retrieve((store) => store.charges, "charge")),
  route("GET", "/v1/balance_transactions/:id", retrieve((store) => store.balanceTransactions, "balance_transaction")),
  route("POST", "/v1/refunds", createRefund),
  route("GET", "/v1/refunds", listRefunds),
  route("GET", "/v1/refunds/:id", retrieve((store) => store.refunds, "refund")),
  route("GET", "/v1/disputes/:id", retrieve((store) => store.disputes, "dispute")),
  ...BILLING_ROUTES,
  ...BALANCE_TRANSACTION_ROUTES,
  ...TRANSFER_ROUTES,
];

export function findRoute(method: string, path: string): { route: Route; ids: string[] } | null {
  for (const candidate of ROUTES) {
    if (candidate.method !== method) continue;
    const match = candidate.regex.exec(path);
    if (match) return { route: candidate, ids: match.slice(1).map(decodeURIComponent) };
  }
  return null;
}

export { StripeApiError };
