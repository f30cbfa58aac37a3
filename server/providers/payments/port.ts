import type { HostedPages } from "./hosted-pages";
import { refusal, type Refusal, type Success } from "#server/platform/errors";
import type { PaymentEvent } from "./events";

/**
 * One card payment provider, as the product uses it (DESIGN §5): Stripe in
 * production, the built-in sandbox by default. Every call that creates
 * something at the provider takes an idempotency key derived from our own
 * row id, so a retried request never creates it twice. Amounts are integer
 * minor units; currencies lowercase ISO 4217.
 */
export type ProviderName = "stripe" | "sandbox";

export type AccountType = "individual" | "company";

/** What the provider says of a connected payout account. */
export type ConnectedAccountState = {
  accountId: string;
  /** Whether it can take charges now: the only thing that makes an account "complete". */
  chargesEnabled: boolean;
  payoutsEnabled: boolean;
  detailsSubmitted: boolean;
};

export type SponsorCheckoutInput = {
  /** From our sponsor_sessions row id, e.g. `checkout_<row id>`. */
  idempotencyKey: string;
  /** Our sponsor_sessions row id; comes back on the checkout events. */
  sessionId: string;
  destinationAccountId: string;
  amount: number;
  currency: string;
  /** The platform's share, in minor units (0 when PLATFORM_FEE_PERCENT is 0). */
  applicationFeeAmount: number;
  /** What the sponsor sees on the checkout page and their receipt, e.g. "Tip for Maya Makes". */
  productName: string;
  description?: string;
  sponsorEmail: string | null;
  successUrl: string;
  cancelUrl: string;
};

export type CheckoutCreated = { checkoutId: string; url: string; expiresAt: Date };

/**
 * A deal's payment: the sponsor pays the whole agreed amount by hosted card
 * checkout, and the platform holds it ("separate charges and transfers") until
 * the deal releases the creator's share (`createTransfer`) or refunds it
 * (`refundHeldPayment`).
 */
export type HeldCheckoutInput = {
  /** `deal_funding_<funding id>`: a retried click never opens two checkouts. */
  idempotencyKey: string;
  /** Our deal_fundings row id: comes back on the checkout events as `sessionId` (metadata.funding_id / client_reference_id). */
  fundingId: string;
  dealId: string;
  /** `deal_<deal id>`: every charge, transfer and refund of one deal share it. */
  transferGroup: string;
  amount: number;
  currency: string;
  productName: string;
  sponsorEmail: string | null;
  successUrl: string;
  cancelUrl: string;
};

/** What a transfer of held money needs: the charge it comes from and the connected account it goes to. */
export type TransferInput = {
  /** Derived from our own row id, so a retried release never moves the money twice. */
  idempotencyKey: string;
  destinationAccountId: string;
  amount: number;
  currency: string;
  /** The held charge (PaymentDetails.chargeId) the money comes from: Stripe's source_transaction. */
  sourceChargeId: string;
  /** The deal's transfer group, the same as its checkout's. */
  transferGroup: string;
};

/** What a settled payment cost: gross, the provider's fee, and what reached the platform account. */
export type PaymentDetails = {
  paymentIntentId: string;
  chargeId: string;
  gross: number;
  providerFee: number;
  currency: string;
};

/**
 * One movement on the platform's balance at the provider (Stripe's balance
 * transaction), normalised for reconciliation (server/features/reconciliation/). Signed
 * integer minor units as the platform's balance sees them: a charge is
 * positive, a refund or a dispute negative; `fee` is what the provider took
 * for it (positive). `paymentIntentId` / `disputeId` tie it to our ledger.
 */
export const BALANCE_TRANSACTION_TYPES = [
  "charge",
  "refund",
  "application_fee",
  "application_fee_refund",
  "dispute",
  "dispute_reversal",
  "transfer",
  "transfer_reversal",
  "other",
] as const;
export type BalanceTransactionType = (typeof BALANCE_TRANSACTION_TYPES)[number];

export type ProviderBalanceTransaction = {
  id: string;
  type: BalanceTransactionType;
  amount: number;
  fee: number;
  currency: string;
  created: Date;
  /** The object it moved money for (ch_, re_, fee_, fr_, du_, tr_…). */
  sourceId: string;
  paymentIntentId: string | null;
  disputeId: string | null;
  /**
   * On a charge: our sponsor_sessions id the checkout carried (its metadata), so a payment the
   * ledger never heard of is still known as ours, and Pro billing's charges are told apart. A held
   * charge (a deal's) carries its deal_fundings id here instead.
   */
  sessionId: string | null;
};

/** A half-open period [from, to). */
export type Period = { from: Date; to: Date };

export type RefundCreated = { refundId: string; status: "pending" | "succeeded" | "failed" | "canceled" | "requires_action" };

/** One refund of a payment as the provider has it now. */
export type ProviderRefund = { refundId: string; amount: number; currency: string; status: RefundCreated["status"] };

/**
 * A webhook delivery refused (answered 400, nothing stored): a missing, forged
 * or stale signature, or a body that is not JSON, is what an attacker or a
 * misconfigured endpoint sends, an expected refusal rather than a bug.
 */
export type WebhookRefusal = Refusal<"invalid-argument", "BAD_SIGNATURE" | "NOT_JSON">;

/** A checked delivery: our event, or null for an event type we do not handle. */
export type ParsedWebhook = Success<{ event: PaymentEvent | null }> | WebhookRefusal;

export function badSignature(message: string): Refusal<"invalid-argument", "BAD_SIGNATURE"> {
  return refusal("invalid-argument", "BAD_SIGNATURE", message);
}

export function notJson(message: string): Refusal<"invalid-argument", "NOT_JSON"> {
  return refusal("invalid-argument", "NOT_JSON", message);
}

export interface PaymentProvider extends ProBilling, MembershipBilling {
  readonly name: ProviderName;
  /** The provider's name as people know it: the connect button reads "Connect with {displayName}". */
  readonly displayName: string;
  /** Where it hosts its checkout and billing pages: the only addresses off our paths we redirect to. */
  readonly hostedPages: HostedPages;
  /** Whether its money is pretend (the sandbox) or real: API keys and the screens say which. */
  readonly moneyMode: "test" | "live";
  /** The request header its webhook deliveries carry their signature in (`parseWebhook` checks it). */
  readonly signatureHeader: string;

  createConnectedAccount(input: { idempotencyKey: string; email: string; accountType: AccountType; uid: string }): Promise<{ accountId: string }>;
  /** The onboarding page the person is sent to; `returnUrl`/`refreshUrl` carry our state token. */
  createOnboardingLink(input: { accountId: string; returnUrl: string; refreshUrl: string }): Promise<{ url: string }>;
  /** The provider's payouts dashboard for an account (SPEC §7.1 createLoginLink). */
  createLoginLink(input: { accountId: string }): Promise<{ url: string }>;
  readAccount(accountId: string): Promise<ConnectedAccountState>;
  /**
   * Closes a payout account for good (account deletion, ADR 0031). Stripe refuses while the
   * account still holds a balance; a refusal or an unreachable provider throws. Closing one that
   * is already gone succeeds.
   */
  deleteConnectedAccount(input: { accountId: string }): Promise<void>;
  /**
   * Deletes a billing customer (account deletion, ADR 0031): every subscription of theirs ends
   * now, their saved cards and email go. Deleting one that is already gone succeeds; anything
   * else the provider refuses throws.
   */
  deleteCustomer(input: { customerId: string }): Promise<void>;

  /** A hosted checkout as a destination charge to the creator's account (SPEC §7.1 buildSponsorSession). */
  createSponsorCheckout(input: SponsorCheckoutInput): Promise<CheckoutCreated>;
  /** Gross and the provider's real fee of a paid payment (its balance transaction). */
  paymentDetails(paymentIntentId: string): Promise<PaymentDetails>;
  /**
   * Every balance transaction the provider created in `period` (reconciliation reads them
   * once a day; Stripe pages through them 100 at a time).
   */
  listBalanceTransactions(period: Period): Promise<ProviderBalanceTransaction[]>;
  /** Refunds all of a payment, reversing the transfer and the application fee (SPEC §7.1 refundSponsorship). */
  refundPayment(input: { idempotencyKey: string; paymentIntentId: string }): Promise<RefundCreated>;

  /**
   * A hosted checkout whose charge stays on the platform's balance (no destination, no application
   * fee): money held until release. metadata.purpose = "deal", so its checkout events say
   * `purpose: "deal"` and carry the funding id as `sessionId`. `paymentDetails` reads it once paid.
   */
  createHeldCheckout(input: HeldCheckoutInput): Promise<CheckoutCreated>;
  /**
   * Moves part of a held charge to a connected account; `sourceChargeId` ties it to its charge
   * (Stripe's source_transaction). Refused (throws) when the account cannot receive payouts or the
   * amount is more than what remains of the charge (its amount less what was refunded and
   * transferred already). The same key returns the same transfer.
   */
  createTransfer(input: TransferInput): Promise<{ transferId: string }>;
  /**
   * Refunds `amount` (all or part) of a held charge back to the payer; nothing is reversed at any
   * connected account, and the provider's processing fee is not returned. The same key returns the
   * same refund; a further key is a further refund, up to what is left unrefunded.
   */
  refundHeldPayment(input: { idempotencyKey: string; paymentIntentId: string; amount: number }): Promise<RefundCreated>;
  /**
   * Every refund of a payment as the provider has it now, in any status, oldest first. `charge.refunded`
   * says only how much of a held charge was refunded in all, and a held charge may be refunded in
   * parts: this names each part, so each is written once by its own refund id.
   */
  listRefunds(paymentIntentId: string): Promise<ProviderRefund[]>;

  /**
   * Checks a webhook delivery's signature over the raw body and answers the
   * event as ours, or null for an event type we do not handle; a missing, bad
   * or stale signature is a BAD_SIGNATURE refusal, a signed body that is not
   * JSON a NOT_JSON one.
   */
  parseWebhook(rawBody: Buffer, signatureHeader: string | undefined): ParsedWebhook;
}

/* ---------------------------------------------------------------------------
 * Pro membership billing (SPEC §7.1 buildProSession / createPortalLink).
 * Kept as its own interface so that each provider implements it in its own files;
 * PaymentProvider includes it.
 * ------------------------------------------------------------------------- */

/** One Pro plan as the provider must sell it (isomorphic/pro-plans.ts). */
export type ProPriceSpec = {
  plan: import("#isomorphic/pro-plans").ProPlanKey;
  lookupKey: string;
  productName: string;
  amount: number;
  currency: string;
  interval: "month" | "year" | null;
};

/** Stripe's subscription statuses, which the sandbox uses too. */
export type ProviderSubscriptionStatus =
  | "active"
  | "trialing"
  | "past_due"
  | "canceled"
  | "incomplete"
  | "incomplete_expired"
  | "unpaid"
  | "paused";

export type ProviderSubscription = {
  subscriptionId: string;
  /** From the price's lookup key; null when the price is not one of ours. */
  plan: import("#isomorphic/pro-plans").ProPlanKey | null;
  status: ProviderSubscriptionStatus;
  currentPeriodEnd: Date;
  /** Cancelled by the member: still Pro until `currentPeriodEnd`, then it ends. */
  cancelAtPeriodEnd: boolean;
  /** When it began: of two running subscriptions, the first one is kept (server/domains/pro/one-subscription.ts). */
  created: Date;
};

/** Everything the provider knows about one customer's Pro purchases: the truth sync.ts converges on. */
export type ProviderProState = {
  customerId: string;
  subscriptions: ProviderSubscription[];
  /** The paid one-time Limitless purchase (its payment intent), if any; it never expires. */
  lifetimePurchase: { paymentIntentId: string; paidAt: Date } | null;
};

export type ProCheckoutInput = {
  /** `pro_checkout_<our row id>`: a retried click never opens two checkouts. */
  idempotencyKey: string;
  customerId: string;
  /** Sent as client_reference_id and metadata.uid; metadata.purpose is "pro". */
  uid: string;
  plan: import("#isomorphic/pro-plans").ProPlanKey;
  priceId: string;
  /** "subscription" for Launchpad and Star Power, "payment" for Limitless. */
  mode: "subscription" | "payment";
  successUrl: string;
  cancelUrl: string;
};

export interface ProBilling {
  /** Finds each plan's price by lookup key and creates only the missing ones (never duplicates); the price ids by plan. */
  ensureProPrices(plans: readonly ProPriceSpec[]): Promise<Record<import("#isomorphic/pro-plans").ProPlanKey, string>>;
  /** The person as a billing customer (idempotency key `customer_<uid>`); metadata.uid is set. */
  createCustomer(input: { idempotencyKey: string; uid: string; email: string }): Promise<{ customerId: string }>;
  /** SPEC §7.1 buildProSession: a hosted checkout, a subscription or a one-time payment. */
  createProCheckout(input: ProCheckoutInput): Promise<CheckoutCreated>;
  /** SPEC §7.1 createPortalLink: the provider's billing portal for the customer. */
  createPortalLink(input: { customerId: string; returnUrl: string }): Promise<{ url: string }>;
  /** The provider's current truth for the customer (read fresh, never from an event's payload). */
  readProState(customerId: string): Promise<ProviderProState>;
  /**
   * Ends one of our subscriptions: at its period's end (Limitless bought, no
   * renewal; Pro until then) or now (a second subscription: its unused time
   * is credited back, as the provider prorates it). The key makes a retry do it once.
   */
  endSubscription(input: { idempotencyKey: string; subscriptionId: string; when: "period_end" | "now" }): Promise<void>;
}

/* ---------------------------------------------------------------------------
 * Memberships (ADR 0084): a fan's monthly or yearly support of a creator, a
 * subscription whose every paid invoice goes to the creator's connected account
 * (Stripe: transfer_data.destination) less the platform's application fee.
 * Kept as its own interface so each provider implements it in its own files.
 * ------------------------------------------------------------------------- */

export type MembershipCheckoutInput = {
  /** `membership_checkout_<membership id>`: a retried click never opens two checkouts. */
  idempotencyKey: string;
  /** Our memberships row id: sent as client_reference_id and metadata.membership_id (metadata.purpose "membership"), on the subscription too. */
  membershipId: string;
  destinationAccountId: string;
  /** What each period costs, minor units. */
  amount: number;
  currency: string;
  interval: "month" | "year";
  /** The platform's share of every invoice, a percentage (Stripe's application_fee_percent); 0 for none. */
  applicationFeePercent: number;
  /** What the member sees on the checkout page and every receipt, e.g. "Gold membership · Maya Makes". */
  productName: string;
  memberEmail: string | null;
  successUrl: string;
  cancelUrl: string;
};

/** One invoice of a membership's subscription: the first period's or a renewal's. */
export type ProviderMembershipInvoice = {
  invoiceId: string;
  /** The payment of a paid invoice (ledger rows, refunds and disputes go by it); null while unpaid. */
  paymentIntentId: string | null;
  amount: number;
  currency: string;
  /** "open": its payment failed and the provider is retrying; "uncollectible"/"void": given up. */
  status: "paid" | "open" | "uncollectible" | "void";
  /** The period it pays for. */
  periodStart: Date;
  periodEnd: Date;
  paidAt: Date | null;
  /** Stripe's billing_reason: the first invoice, a renewal, or a change. */
  reason: "subscription_create" | "subscription_cycle" | "subscription_update";
};

/** The provider's truth about one membership subscription: what the one writer converges on. */
export type ProviderMembershipState = {
  subscriptionId: string;
  customerId: string;
  /** metadata.membership_id; null when the subscription is not one of ours. */
  membershipId: string | null;
  status: ProviderSubscriptionStatus;
  /** What the next renewal charges, and how often. */
  amount: number;
  currency: string;
  interval: "month" | "year";
  currentPeriodEnd: Date;
  cancelAtPeriodEnd: boolean;
  /** When it ended (status canceled). */
  endedAt: Date | null;
  /** The address the member gave the checkout. */
  customerEmail: string | null;
  /** Every invoice, oldest first. */
  invoices: ProviderMembershipInvoice[];
};

export interface MembershipBilling {
  /** A hosted checkout in subscription mode, paying to the creator's connected account. The same key returns the same checkout. */
  createMembershipCheckout(input: MembershipCheckoutInput): Promise<CheckoutCreated>;
  /** The subscription found by the checkout that started it; null while that checkout is unpaid. */
  membershipSubscriptionOfCheckout(checkoutId: string): Promise<string | null>;
  /** The provider's current truth (read fresh, never from an event's payload). */
  readMembershipState(subscriptionId: string): Promise<ProviderMembershipState>;
  /** A new price or interval from the next renewal (no proration, as Pro's plan switch). The key makes a retry do it once. */
  changeMembershipPrice(input: { idempotencyKey: string; subscriptionId: string; amount: number; interval: "month" | "year"; productName: string }): Promise<void>;
  /** Cancel at the period's end (true) or undo that (false). */
  setMembershipCancelAtPeriodEnd(input: { idempotencyKey: string; subscriptionId: string; cancelAtPeriodEnd: boolean }): Promise<void>;
  /** Ends it now, without a refund (a creator removing a member; a refund is its own call). Ending an ended one does nothing. */
  endMembershipNow(input: { idempotencyKey: string; subscriptionId: string }): Promise<void>;
  /** The provider's page where the member updates their card; a past-due renewal is retried with the new card. */
  createMembershipCardLink(input: { customerId: string; subscriptionId: string; returnUrl: string }): Promise<{ url: string }>;
}
