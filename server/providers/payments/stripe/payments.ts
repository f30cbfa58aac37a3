import Stripe from "stripe";
import type { CheckoutCreated, HeldCheckoutInput, PaymentDetails, ProviderRefund, RefundCreated, SponsorCheckoutInput, TransferInput } from "#server/providers/payments/port";

/**
 * Sponsor payments as Stripe destination charges: the charge is made on the
 * platform account and its amount (less our application fee) is transferred
 * to the creator's connected account. Hosted Checkout collects the card, so
 * our own pages never load Stripe's script.
 */

export async function createSponsorCheckout(stripe: Stripe, input: SponsorCheckoutInput, expiresAt: Date): Promise<CheckoutCreated> {
  const session = await stripe.checkout.sessions.create(
    {
      mode: "payment",
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: input.currency,
            unit_amount: input.amount,
            product_data: { name: input.productName, ...(input.description && { description: input.description }) },
          },
        },
      ],
      payment_intent_data: {
        transfer_data: { destination: input.destinationAccountId },
        ...(input.applicationFeeAmount > 0 && { application_fee_amount: input.applicationFeeAmount }),
        metadata: { session_id: input.sessionId },
      },
      client_reference_id: input.sessionId,
      metadata: { session_id: input.sessionId },
      ...(input.sponsorEmail && { customer_email: input.sponsorEmail }),
      success_url: input.successUrl,
      cancel_url: input.cancelUrl,
      expires_at: Math.floor(expiresAt.getTime() / 1000),
    },
    { idempotencyKey: input.idempotencyKey },
  );
  if (!session.url) throw new Error(`Stripe returned checkout session ${session.id} without a URL`);
  return { checkoutId: session.id, url: session.url, expiresAt: new Date(session.expires_at * 1000) };
}

/**
 * A deal's payment as separate charges and transfers: the charge stays on the platform's balance
 * (no transfer_data, no application fee) under the deal's transfer group, until transfers
 * (`createTransfer`) release the creator's share or refunds (`refundHeldPayment`) give it back.
 * metadata.purpose "deal" tells its checkout events from a tip's; the funding id comes back as
 * their sessionId, and on the charge (the payment intent's metadata) for reconciliation.
 */
export async function createHeldCheckout(stripe: Stripe, input: HeldCheckoutInput, expiresAt: Date): Promise<CheckoutCreated> {
  const metadata = { purpose: "deal", deal_id: input.dealId, funding_id: input.fundingId };
  const session = await stripe.checkout.sessions.create(
    {
      mode: "payment",
      line_items: [{ quantity: 1, price_data: { currency: input.currency, unit_amount: input.amount, product_data: { name: input.productName } } }],
      payment_intent_data: { transfer_group: input.transferGroup, metadata },
      client_reference_id: input.fundingId,
      metadata,
      ...(input.sponsorEmail && { customer_email: input.sponsorEmail }),
      success_url: input.successUrl,
      cancel_url: input.cancelUrl,
      expires_at: Math.floor(expiresAt.getTime() / 1000),
    },
    { idempotencyKey: input.idempotencyKey },
  );
  if (!session.url) throw new Error(`Stripe returned checkout session ${session.id} without a URL`);
  return { checkoutId: session.id, url: session.url, expiresAt: new Date(session.expires_at * 1000) };
}

/**
 * Part of a held charge to a connected account. `source_transaction` ties the transfer to its
 * charge: Stripe then takes it from that charge's funds (even while they are pending) and refuses
 * more than the charge has left; a destination without the transfers capability is refused too.
 */
export async function createTransfer(stripe: Stripe, input: TransferInput): Promise<{ transferId: string }> {
  const transfer = await stripe.transfers.create(
    {
      amount: input.amount,
      currency: input.currency,
      destination: input.destinationAccountId,
      source_transaction: input.sourceChargeId,
      transfer_group: input.transferGroup,
    },
    { idempotencyKey: input.idempotencyKey },
  );
  return { transferId: transfer.id };
}

/**
 * Refunds part (or all) of a held charge from the platform's balance: no reverse_transfer (the
 * charge made none) and no application fee to give back. Unlike `refundPayment`, a refusal is not
 * read as "refunded already": a held charge may be refunded in several parts, so another key is
 * another refund and the caller's key alone makes a retry safe.
 */
export async function refundHeldPayment(stripe: Stripe, input: { idempotencyKey: string; paymentIntentId: string; amount: number }): Promise<RefundCreated> {
  const refund = await stripe.refunds.create({ payment_intent: input.paymentIntentId, amount: input.amount }, { idempotencyKey: input.idempotencyKey });
  return { refundId: refund.id, status: refundStatus(refund.status) };
}

/** Every refund of the payment, oldest first (Stripe lists newest first, 100 a page). */
export async function listRefunds(stripe: Stripe, paymentIntentId: string): Promise<ProviderRefund[]> {
  const refunds: ProviderRefund[] = [];
  for await (const refund of stripe.refunds.list({ payment_intent: paymentIntentId, limit: 100 })) {
    refunds.push({ refundId: refund.id, amount: refund.amount, currency: refund.currency, status: refundStatus(refund.status) });
  }
  return refunds.reverse();
}

const idOf = (value: string | { id: string } | null | undefined) => (typeof value === "string" ? value : (value?.id ?? null));

/** Gross and Stripe's real fee, from the charge's balance transaction (fetched in the same call). */
export async function paymentDetails(stripe: Stripe, paymentIntentId: string): Promise<PaymentDetails> {
  const intent = await stripe.paymentIntents.retrieve(paymentIntentId, { expand: ["latest_charge.balance_transaction"] });
  const charge = intent.latest_charge;
  if (!charge || typeof charge === "string") throw new Error(`Payment ${paymentIntentId} has no charge yet`);
  const transaction = charge.balance_transaction;
  if (!transaction || typeof transaction === "string") throw new Error(`Charge ${charge.id} has no balance transaction yet`);
  return {
    paymentIntentId: intent.id,
    chargeId: charge.id,
    gross: transaction.amount,
    providerFee: transaction.fee,
    currency: transaction.currency,
  };
}

/**
 * Refunds the whole payment. Asked again with the same key, Stripe answers
 * with the first refund; asked again once the key has expired (Stripe keeps
 * keys 24 hours) or with another key, Stripe refuses with
 * `charge_already_refunded`, and we answer with the refund already made: a
 * payment is refunded once, and asking twice is not an error.
 */
export async function refundPayment(stripe: Stripe, input: { idempotencyKey: string; paymentIntentId: string }): Promise<RefundCreated> {
  let refund: Stripe.Refund;
  try {
    refund = await stripe.refunds.create(
      {
        payment_intent: input.paymentIntentId,
        // Take the money back from the creator's account and give back our fee: the sponsor is made whole.
        reverse_transfer: true,
        refund_application_fee: true,
      },
      { idempotencyKey: input.idempotencyKey },
    );
  } catch (error) {
    const existing = isAlreadyRefunded(error) ? await refundAlreadyMade(stripe, input.paymentIntentId) : undefined;
    if (!existing) throw error;
    refund = existing;
  }
  return { refundId: refund.id, status: refundStatus(refund.status) };
}

function isAlreadyRefunded(error: unknown): boolean {
  return error instanceof Stripe.errors.StripeInvalidRequestError && error.code === "charge_already_refunded";
}

async function refundAlreadyMade(stripe: Stripe, paymentIntentId: string): Promise<Stripe.Refund | undefined> {
  const refunds = await stripe.refunds.list({ payment_intent: paymentIntentId, limit: 10 });
  return refunds.data.find((refund) => refund.status !== "failed" && refund.status !== "canceled");
}

export function refundStatus(status: string | null): RefundCreated["status"] {
  switch (status) {
    case "succeeded":
    case "failed":
    case "canceled":
    case "requires_action":
      return status;
    default:
      return "pending";
  }
}

export { idOf };
