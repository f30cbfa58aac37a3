import type Stripe from "stripe";
import { fromFixture, newId, nowSeconds } from "#tests/support/stripe-emulator/fixtures";
import type { EmulatorStore } from "#tests/support/stripe-emulator/store";

/** Builders of the objects the emulator keeps: Stripe's fixture, with what this object is written over it. */

const INCOMPLETE_REQUIREMENTS = ["business_type", "external_account", "individual.dob.day", "tos_acceptance.date", "tos_acceptance.ip"];

export function newExpressAccount(input: { email: string | null; businessType: Stripe.Account.BusinessType | null; metadata: Record<string, string> }): Stripe.Account {
  const id = newId("acct", 16);
  const requirements = {
    alternatives: [],
    current_deadline: null,
    currently_due: INCOMPLETE_REQUIREMENTS,
    disabled_reason: "requirements.past_due",
    errors: [],
    eventually_due: INCOMPLETE_REQUIREMENTS,
    past_due: INCOMPLETE_REQUIREMENTS,
    pending_verification: [],
  } satisfies Stripe.Account.Requirements;
  return fromFixture<Stripe.Account>("account", {
    id,
    type: "express",
    email: input.email,
    business_type: input.businessType,
    capabilities: { card_payments: "inactive", transfers: "inactive" },
    charges_enabled: false,
    payouts_enabled: false,
    details_submitted: false,
    controller: { type: "application", is_controller: true },
    created: nowSeconds(),
    metadata: input.metadata,
    requirements,
    external_accounts: { object: "list", data: [], has_more: false, url: `/v1/accounts/${id}/external_accounts` },
  });
}

/** What onboarding on Stripe's pages leaves behind: details in, capabilities active, nothing due. */
export function completeAccount(account: Stripe.Account): void {
  account.details_submitted = true;
  account.charges_enabled = true;
  account.payouts_enabled = true;
  account.capabilities = { card_payments: "active", transfers: "active" };
  account.business_type ??= "individual";
  if (account.requirements) {
    Object.assign(account.requirements, { currently_due: [], eventually_due: [], past_due: [], disabled_reason: null });
  }
}

export function newAccountLink(url: string, lifetimeSeconds = 300): Stripe.AccountLink {
  const created = nowSeconds();
  return fromFixture<Stripe.AccountLink>("account_link", { created, expires_at: created + lifetimeSeconds, url });
}

export function newLoginLink(url: string): Stripe.LoginLink {
  return fromFixture<Stripe.LoginLink>("login_link", { created: nowSeconds(), url });
}

export type CheckoutInput = {
  amount: number;
  currency: string;
  clientReferenceId: string | null;
  customerEmail: string | null;
  metadata: Record<string, string>;
  successUrl: string;
  cancelUrl: string | null;
  expiresAt: number;
  mode?: "payment" | "subscription";
  customer?: string | null;
};

export function newCheckoutSession(input: CheckoutInput, url: (id: string) => string): Stripe.Checkout.Session {
  const id = newId("cs_test", 58);
  return fromFixture<Stripe.Checkout.Session>("checkout.session", {
    id,
    amount_subtotal: input.amount,
    amount_total: input.amount,
    currency: input.currency,
    client_reference_id: input.clientReferenceId,
    customer_email: input.customerEmail,
    // Filled in when the sponsor pays.
    customer_details: null,
    created: nowSeconds(),
    expires_at: input.expiresAt,
    metadata: input.metadata,
    mode: input.mode ?? "payment",
    customer: input.customer ?? null,
    // Since API version 2022-08-01 the payment intent exists only once the sponsor pays.
    payment_intent: null,
    payment_status: "unpaid",
    status: "open",
    success_url: input.successUrl,
    cancel_url: input.cancelUrl,
    url: url(id),
    // Nothing of these applies to a one-line payment without shipping or tax.
    shipping_cost: null,
    shipping_address_collection: null,
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    currency_conversion: null,
    collected_information: null,
    after_expiration: null,
    invoice_creation: {
      enabled: false,
      invoice_data: {
        account_tax_ids: null,
        custom_fields: null,
        description: null,
        footer: null,
        issuer: null,
        metadata: {},
        rendering_options: null,
      },
    },
  });
}

export type PaymentIntentInput = {
  amount: number;
  currency: string;
  applicationFeeAmount: number | null;
  /** The connected account of a destination charge; null for the platform's own sales (Pro) and the charges it holds. */
  destination: string | null;
  /** `payment_intent_data[transfer_group]`: the group a held charge's transfers share (separate charges and transfers). */
  transferGroup?: string | null;
  metadata: Record<string, string>;
  receiptEmail: string | null;
  customer?: string | null;
};

export function newPaymentIntent(input: PaymentIntentInput): Stripe.PaymentIntent {
  const id = newId("pi");
  return fromFixture<Stripe.PaymentIntent>("payment_intent", {
    id,
    amount: input.amount,
    amount_capturable: 0,
    amount_received: 0,
    application_fee_amount: input.applicationFeeAmount,
    automatic_payment_methods: null,
    canceled_at: null,
    client_secret: `${id}_secret_${newId("s", 25).slice(2)}`,
    created: nowSeconds(),
    currency: input.currency,
    last_payment_error: null,
    latest_charge: null,
    metadata: input.metadata,
    next_action: null,
    processing: null,
    receipt_email: input.receiptEmail,
    shipping: null,
    status: "requires_payment_method",
    transfer_data: input.destination ? { destination: input.destination } : null,
    // Stripe makes one for a destination charge; a held charge has the one the platform gave.
    transfer_group: input.transferGroup ?? (input.destination ? `group_${id}` : null),
    customer: input.customer ?? null,
  });
}

export function newCharge(intent: Stripe.PaymentIntent, input: { balanceTransaction: string | null; paid: boolean; email: string | null }): Stripe.Charge {
  const id = newId("ch");
  return fromFixture<Stripe.Charge>("charge", {
    id,
    amount: intent.amount,
    amount_captured: input.paid ? intent.amount : 0,
    amount_refunded: 0,
    application_fee: intent.application_fee_amount ? newId("fee") : null,
    application_fee_amount: intent.application_fee_amount,
    balance_transaction: input.balanceTransaction,
    billing_details: {
      address: { city: null, country: "US", line1: null, line2: null, postal_code: "94107", state: null },
      email: input.email,
      name: null,
      phone: null,
      tax_id: null,
    },
    captured: input.paid,
    created: nowSeconds(),
    currency: intent.currency,
    description: null,
    disputed: false,
    metadata: intent.metadata,
    paid: input.paid,
    payment_intent: intent.id,
    payment_method: newId("pm"),
    receipt_email: input.email,
    refunded: false,
    refunds: { object: "list", data: [], has_more: false, url: `/v1/charges/${id}/refunds` },
    source: null,
    status: input.paid ? "succeeded" : "pending",
    // Only a destination charge has a transfer; Stripe leaves the field out otherwise.
    ...(intent.transfer_data && { transfer: newId("tr") }),
    transfer_data: intent.transfer_data ? { amount: null, destination: intent.transfer_data.destination as string } : null,
    customer: intent.customer,
    transfer_group: intent.transfer_group,
  });
}

/** Stripe's standard US card pricing, as the emulator charges it: 2.9 % (rounded to the cent) + 30¢. */
export function processingFee(amount: number): number {
  return Math.round((amount * 29) / 1000) + 30;
}

/** A card payment went through: its balance transaction (gross less the processing fee) and a succeeded charge and intent. */
export function settleCharge(store: EmulatorStore, intent: Stripe.PaymentIntent, charge: Stripe.Charge): void {
  const transaction = newBalanceTransaction({
    amount: intent.amount,
    fee: processingFee(intent.amount),
    currency: intent.currency,
    source: charge.id,
    type: "charge",
    reportingCategory: "charge",
    description: null,
  });
  store.balanceTransactions.set(transaction.id, transaction);
  Object.assign(charge, { balance_transaction: transaction.id, paid: true, captured: true, amount_captured: intent.amount, status: "succeeded" });
  Object.assign(intent, { status: "succeeded", amount_received: intent.amount });
}

export function newBalanceTransaction(input: {
  amount: number;
  fee: number;
  currency: string;
  source: string;
  type: Stripe.BalanceTransaction.Type;
  reportingCategory: string;
  description: string | null;
}): Stripe.BalanceTransaction {
  const created = nowSeconds();
  return fromFixture<Stripe.BalanceTransaction>("balance_transaction", {
    id: newId("txn"),
    amount: input.amount,
    available_on: created + 2 * 86_400,
    created,
    currency: input.currency,
    description: input.description,
    fee: input.fee,
    fee_details: input.fee ? [{ amount: input.fee, application: null, currency: input.currency, description: "Stripe processing fees", type: "stripe_fee" }] : [],
    net: input.amount - input.fee,
    reporting_category: input.reportingCategory,
    source: input.source,
    status: "pending",
    type: input.type,
  });
}

export function newRefund(charge: Stripe.Charge, input: { amount: number; status: Stripe.Refund["status"]; balanceTransaction: string | null; metadata: Record<string, string>; reverseTransfer: boolean }): Stripe.Refund {
  return fromFixture<Stripe.Refund>("refund", {
    id: newId("re"),
    amount: input.amount,
    balance_transaction: input.balanceTransaction,
    charge: charge.id,
    created: nowSeconds(),
    currency: charge.currency,
    metadata: input.metadata,
    payment_intent: charge.payment_intent,
    status: input.status,
    transfer_reversal: input.reverseTransfer ? newId("trr") : null,
    payment_method: typeof charge.payment_method === "string" ? charge.payment_method : null,
  });
}

export function newTransfer(input: {
  amount: number;
  currency: string;
  destination: string;
  sourceTransaction: string | null;
  transferGroup: string | null;
  balanceTransaction: string;
  description: string | null;
  metadata: Record<string, string>;
}): Stripe.Transfer {
  const id = newId("tr");
  return fromFixture<Stripe.Transfer>("transfer", {
    id,
    amount: input.amount,
    amount_reversed: 0,
    balance_transaction: input.balanceTransaction,
    created: nowSeconds(),
    currency: input.currency,
    description: input.description,
    destination: input.destination,
    // The payment the money makes on the connected account's own balance.
    destination_payment: newId("py"),
    metadata: input.metadata,
    reversals: { object: "list", data: [], has_more: false, url: `/v1/transfers/${id}/reversals` },
    reversed: false,
    source_transaction: input.sourceTransaction,
    source_type: "card",
    transfer_group: input.transferGroup,
  });
}

export function newDispute(charge: Stripe.Charge, reason: string): Stripe.Dispute {
  const created = nowSeconds();
  const dispute = fromFixture<Stripe.Dispute>("dispute", {
    id: newId("dp"),
    amount: charge.amount,
    balance_transactions: [],
    charge: charge.id,
    created,
    currency: charge.currency,
    is_charge_refundable: false,
    metadata: {},
    payment_intent: charge.payment_intent,
    reason,
    status: "needs_response",
  });
  dispute.evidence_details = { ...dispute.evidence_details, due_by: created + 7 * 86_400 };
  return dispute;
}
