import type Stripe from "stripe";
import type { ApiContext } from "#tests/support/stripe-emulator/handler";
import { newEvent, type EmulatorEvent } from "#tests/support/stripe-emulator/events";
import { nowSeconds } from "#tests/support/stripe-emulator/fixtures";
import { advanceSubscription, completeSubscriptionCheckout } from "#tests/support/stripe-emulator/billing-control";
import { updateCard } from "#tests/support/stripe-emulator/billing-payments";
import { completeAccount, newCharge, newPaymentIntent, settleCharge } from "#tests/support/stripe-emulator/objects";
import { closeDispute, openDispute, submitDisputeEvidence } from "#tests/support/stripe-emulator/disputes";

/**
 * What happens at Stripe without our app calling it: a creator finishing
 * onboarding, a sponsor paying on the hosted page (or walking away), a bank
 * settling a delayed payment, a cardholder disputing. Each returns the events
 * Stripe would send, in Stripe's order; the emulator signs and delivers them.
 */
export class EmulatorControl {
  constructor(private readonly context: ApiContext) {}

  private get store() {
    return this.context.store;
  }

  private account(id: string): Stripe.Account {
    const account = this.store.accounts.get(id);
    if (!account) throw new Error(`No such account: ${id}`);
    return account;
  }

  private session(id: string): Stripe.Checkout.Session {
    const session = this.store.checkoutSessions.get(id);
    if (!session) throw new Error(`No such checkout session: ${id}`);
    return session;
  }

  /** The creator finished Stripe's onboarding: charges and payouts on. Connect events name the account. */
  completeOnboarding(accountId: string): EmulatorEvent[] {
    const account = this.account(accountId);
    completeAccount(account);
    return [newEvent("account.updated", account, { account: account.id })];
  }

  /** Stripe turned charges off (or back on), e.g. after a verification problem. */
  setChargesEnabled(accountId: string, enabled: boolean): EmulatorEvent[] {
    const account = this.account(accountId);
    account.charges_enabled = enabled;
    account.capabilities = { ...account.capabilities, card_payments: enabled ? "active" : "inactive" };
    return [newEvent("account.updated", account, { account: account.id })];
  }

  /**
   * The sponsor paid on the hosted page. A card settles at once: the payment
   * intent, its charge and the balance transaction (fee 2.9 % + 30¢) appear and
   * `checkout.session.completed` says "paid". With `delayed`, the payment is
   * still processing (a bank debit): the session completes "unpaid" and
   * `settleDelayedPayment` finishes it.
   */
  completeCheckout(checkoutId: string, options: { email?: string; delayed?: boolean } = {}): EmulatorEvent[] {
    const session = this.session(checkoutId);
    if (session.status !== "open") throw new Error(`Checkout session ${checkoutId} is ${session.status}, not open`);
    const customer = typeof session.customer === "string" ? this.store.customers.get(session.customer) : undefined;
    const email = options.email ?? customer?.email ?? session.customer_email ?? "sponsor@example.com";
    if (session.mode === "subscription") return completeSubscriptionCheckout(this.context, session, email);
    const payment = this.context.checkoutPayments.get(checkoutId);
    if (!payment) throw new Error(`Checkout session ${checkoutId} has nothing to pay`);
    const intent = newPaymentIntent(payment);
    this.store.paymentIntents.set(intent.id, intent);
    const charge = newCharge(intent, { balanceTransaction: null, paid: !options.delayed, email });
    this.store.charges.set(charge.id, charge);
    intent.latest_charge = charge.id;
    intent.payment_method = charge.payment_method;
    if (options.delayed) {
      intent.status = "processing";
    } else {
      this.settle(intent, charge);
    }
    Object.assign(session, {
      status: "complete",
      payment_status: options.delayed ? "unpaid" : "paid",
      payment_intent: intent.id,
      customer_details: {
        address: { city: null, country: "US", line1: null, line2: null, postal_code: "94107", state: null },
        email,
        name: null,
        phone: null,
        tax_exempt: "none",
        tax_ids: [],
        business_name: null,
        individual_name: null,
      },
    } satisfies Partial<Stripe.Checkout.Session>);
    return [newEvent("checkout.session.completed", session)];
  }

  private settle(intent: Stripe.PaymentIntent, charge: Stripe.Charge) {
    settleCharge(this.store, intent, charge);
  }

  /** Time passes to the end of a subscription's period: it renews (paid or declined) or, cancelled at period end, ends. */
  advanceSubscription(subscriptionId: string): EmulatorEvent[] {
    return advanceSubscription(this.context, subscriptionId);
  }

  /** The customer gave a new card in the billing portal: 4000 0000 0000 0341 is declined from now on; any other pays what is past due at once. */
  updateCard(customerId: string, card: string): EmulatorEvent[] {
    if (!this.store.customers.has(customerId)) throw new Error(`No such customer: ${customerId}`);
    return updateCard(this.context, customerId, card);
  }

  /** Declines (or accepts again) the customer's card from now on, for renewals. */
  setCardFailing(customerId: string, failing: boolean): EmulatorEvent[] {
    if (!this.store.customers.has(customerId)) throw new Error(`No such customer: ${customerId}`);
    if (failing) this.context.failingCards.add(customerId);
    else this.context.failingCards.delete(customerId);
    return [];
  }

  /** The bank settled (or refused) a delayed payment. */
  settleDelayedPayment(checkoutId: string, outcome: "succeeded" | "failed"): EmulatorEvent[] {
    const session = this.session(checkoutId);
    const intent = this.store.paymentIntents.get(String(session.payment_intent));
    const charge = intent && this.store.charges.get(String(intent.latest_charge));
    if (!intent || !charge || intent.status !== "processing") throw new Error(`Checkout session ${checkoutId} has no payment processing`);
    if (outcome === "succeeded") {
      this.settle(intent, charge);
      session.payment_status = "paid";
      return [newEvent("checkout.session.async_payment_succeeded", session)];
    }
    Object.assign(charge, { status: "failed", failure_code: "insufficient_funds", failure_message: "Your account has insufficient funds." });
    intent.status = "requires_payment_method";
    return [newEvent("checkout.session.async_payment_failed", session)];
  }

  /** The sponsor never paid and the session ran out (or was expired through the API). */
  expireCheckout(checkoutId: string): EmulatorEvent[] {
    const session = this.session(checkoutId);
    if (session.status !== "open") throw new Error(`Checkout session ${checkoutId} is ${session.status}, not open`);
    Object.assign(session, { status: "expired", url: null, expires_at: Math.min(session.expires_at, nowSeconds()) });
    return [newEvent("checkout.session.expired", session)];
  }

  /** A pending refund finished: `refund.updated` when it succeeded, `refund.failed` when it did not (the charge gets the money back). */
  settleRefund(refundId: string, outcome: "succeeded" | "failed"): EmulatorEvent[] {
    const refund = this.store.refunds.get(refundId);
    if (!refund || refund.status !== "pending") throw new Error(`Refund ${refundId} is not pending`);
    refund.status = outcome;
    if (outcome === "succeeded") return [newEvent("refund.updated", refund)];
    refund.failure_reason = "declined";
    const charge = this.store.charges.get(String(refund.charge));
    if (charge) {
      charge.amount_refunded -= refund.amount;
      charge.refunded = false;
    }
    return [newEvent("refund.failed", refund)];
  }

  /**
   * Time passes (Stripe's standard US schedule makes a card's funds available two days on): every
   * pending balance transaction is available now, so the platform's available balance holds what it
   * was paid and a transfer without a source_transaction can draw on it. Stripe sends nothing we read.
   */
  makeFundsAvailable(): EmulatorEvent[] {
    const now = nowSeconds();
    for (const transaction of this.store.balanceTransactions.values()) {
      if (transaction.available_on > now) Object.assign(transaction, { available_on: now, status: "available" });
    }
    return [];
  }

  /** The cardholder disputed the payment with their bank (./disputes.ts). */
  openDispute(paymentIntentId: string, reason = "fraudulent"): EmulatorEvent[] {
    return openDispute(this.store, paymentIntentId, reason);
  }

  submitDisputeEvidence(disputeId: string): EmulatorEvent[] {
    return submitDisputeEvidence(this.store, disputeId);
  }

  closeDispute(disputeId: string, outcome: "won" | "lost"): EmulatorEvent[] {
    return closeDispute(this.store, disputeId, outcome);
  }
}
