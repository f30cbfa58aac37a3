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

/** What a settled payment cost: gross, the provider's fee, and what reached the platform account. */
export type PaymentDetails = {
  paymentIntentId: string;
  chargeId: string;
  gross: number;
  providerFee: number;
  currency: string;
};

export type RefundCreated = { refundId: string; status: "pending" | "succeeded" | "failed" | "canceled" | "requires_action" };

export class WebhookSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WebhookSignatureError";
  }
}

export interface PaymentProvider {
  readonly name: ProviderName;
  /** The provider's name as people know it: the connect button reads "Connect with {displayName}". */
  readonly displayName: string;

  createConnectedAccount(input: { idempotencyKey: string; email: string; accountType: AccountType; uid: string }): Promise<{ accountId: string }>;
  /** The onboarding page the person is sent to; `returnUrl`/`refreshUrl` carry our state token. */
  createOnboardingLink(input: { accountId: string; returnUrl: string; refreshUrl: string }): Promise<{ url: string }>;
  /** The provider's payouts dashboard for an account (SPEC §7.1 createLoginLink). */
  createLoginLink(input: { accountId: string }): Promise<{ url: string }>;
  readAccount(accountId: string): Promise<ConnectedAccountState>;

  /** A hosted checkout as a destination charge to the creator's account (SPEC §7.1 buildSponsorSession). */
  createSponsorCheckout(input: SponsorCheckoutInput): Promise<CheckoutCreated>;
  /** Gross and the provider's real fee of a paid payment (its balance transaction). */
  paymentDetails(paymentIntentId: string): Promise<PaymentDetails>;
  /** Refunds all of a payment, reversing the transfer and the application fee (SPEC §7.1 refundSponsorship). */
  refundPayment(input: { idempotencyKey: string; paymentIntentId: string }): Promise<RefundCreated>;

  /**
   * Checks a webhook delivery's signature over the raw body and returns the
   * event as ours, or null for an event type we do not handle. Throws
   * WebhookSignatureError for a missing, bad or stale signature.
   */
  parseWebhook(rawBody: Buffer, signatureHeader: string | undefined): PaymentEvent | null;
}
