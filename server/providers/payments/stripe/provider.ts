import { pagesOffSite, type HostedPages } from "#server/providers/payments/hosted-pages";
import type Stripe from "stripe";
import type { PaymentProvider, ProBilling } from "#server/providers/payments/port";
import { createCustomer, createPortalLink, createProCheckout, endSubscription, ensureProPrices, readProState } from "#server/providers/payments/stripe/billing";
import { createExpressAccount, createExpressLoginLink, createOnboardingLink, readAccount } from "#server/providers/payments/stripe/connect";
import { listStripeBalanceTransactions } from "#server/providers/payments/stripe/balance-transactions";
import { createHeldCheckout, createSponsorCheckout, createTransfer, listRefunds, paymentDetails, refundHeldPayment, refundPayment } from "#server/providers/payments/stripe/payments";
import { stripeMembershipBilling } from "#server/providers/payments/stripe/memberships";
import { parseStripeWebhook } from "#server/providers/payments/stripe/webhooks";

/** A delete that finds nothing to delete has done its job (a retried account deletion). */
async function deleteGone(del: () => Promise<unknown>): Promise<void> {
  try {
    await del();
  } catch (error) {
    if ((error as { code?: string }).code === "resource_missing") return;
    throw error;
  }
}

/** How long a sponsor has to pay on Stripe's page (Stripe allows 30 minutes to 24 hours). */
export const CHECKOUT_LIFETIME_MS = 60 * 60 * 1000;

export type StripeProviderOptions = {
  stripe: Stripe;
  /** Signing secrets of the endpoints that post to us: the platform's, and the Connect endpoint's if separate. */
  webhookSecrets: readonly string[];
  /** The API's address when it is not Stripe's own (the emulator in tests): it serves the hosted pages too. */
  apiUrl?: string | null;
  now?: () => number;
};

const CHECKOUT_ORIGIN = "https://checkout.stripe.com";
const BILLING_ORIGIN = "https://billing.stripe.com";

/** Checkout on checkout.stripe.com; Pro's billing portal on billing.stripe.com (and its checkout on checkout's). */
export function stripeHostedPages(apiUrl?: string | null): HostedPages {
  const api = apiUrl ? [new URL(apiUrl).origin] : [];
  return pagesOffSite({ checkout: [CHECKOUT_ORIGIN, ...api], billing: [CHECKOUT_ORIGIN, BILLING_ORIGIN, ...api] });
}

/**
 * The PaymentProvider on Stripe: Connect Express accounts, hosted Checkout as destination charges
 * (tips) or as charges the platform holds and later transfers (deals), Pro on Stripe Billing,
 * memberships as Billing subscriptions whose invoices are destination charges.
 */
export function createStripeProvider({ stripe, webhookSecrets, apiUrl, now = Date.now }: StripeProviderOptions): PaymentProvider & ProBilling {
  if (webhookSecrets.length === 0) throw new Error("The Stripe provider needs at least one webhook signing secret");
  return {
    name: "stripe",
    displayName: "Stripe",
    hostedPages: stripeHostedPages(apiUrl),
    moneyMode: "live",
    signatureHeader: "stripe-signature",
    createConnectedAccount: (input) => createExpressAccount(stripe, input),
    createOnboardingLink: (input) => createOnboardingLink(stripe, input),
    createLoginLink: ({ accountId }) => createExpressLoginLink(stripe, accountId),
    readAccount: (accountId) => readAccount(stripe, accountId),
    deleteConnectedAccount: ({ accountId }) => deleteGone(() => stripe.accounts.del(accountId)),
    deleteCustomer: ({ customerId }) => deleteGone(() => stripe.customers.del(customerId)),
    createSponsorCheckout: (input) => createSponsorCheckout(stripe, input, new Date(now() + CHECKOUT_LIFETIME_MS)),
    paymentDetails: (paymentIntentId) => paymentDetails(stripe, paymentIntentId),
    listBalanceTransactions: (period) => listStripeBalanceTransactions(stripe, period),
    refundPayment: (input) => refundPayment(stripe, input),
    createHeldCheckout: (input) => createHeldCheckout(stripe, input, new Date(now() + CHECKOUT_LIFETIME_MS)),
    createTransfer: (input) => createTransfer(stripe, input),
    refundHeldPayment: (input) => refundHeldPayment(stripe, input),
    listRefunds: (paymentIntentId) => listRefunds(stripe, paymentIntentId),
    ensureProPrices: (plans) => ensureProPrices(stripe, plans),
    createCustomer: (input) => createCustomer(stripe, input),
    createProCheckout: (input) => createProCheckout(stripe, input),
    createPortalLink: (input) => createPortalLink(stripe, input),
    readProState: (customerId) => readProState(stripe, customerId),
    endSubscription: (input) => endSubscription(stripe, input),
    ...stripeMembershipBilling(stripe, () => new Date(now() + CHECKOUT_LIFETIME_MS)),
    parseWebhook: (rawBody, signatureHeader) => parseStripeWebhook(rawBody, signatureHeader, webhookSecrets, now),
  };
}
