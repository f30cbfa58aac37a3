import crypto from "node:crypto";
import type { Db } from "#server/platform/db/client";
import { bioPages, memberships, membershipTiers, user } from "#server/platform/db/schema";
import type { PaymentEvent } from "#server/providers/payments/events";
import type { Period, PaymentDetails, PaymentProvider, ProviderBalanceTransaction, ProviderMembershipInvoice, ProviderMembershipState } from "#server/providers/payments/port";
import { platformFeeFor } from "#server/domains/payments/ledger/fees";
import { TEST_FEE_PERCENT } from "./payments";

const rand = () => crypto.randomBytes(5).toString("hex");
const DAY = 86_400_000;
const periodMs = (interval: "month" | "year") => (interval === "month" ? 30 : 365) * DAY;
/** Stripe's standard card fee, as the provider reports it on each paid invoice. */
export const fakeCardFee = (gross: number) => Math.round(gross * 0.029) + 30;

type Subscription = ProviderMembershipState & { nextAmount: number };

/**
 * An in-memory provider of membership subscriptions for the writer's tests: the test drives a
 * membership's life at the provider (join, renew, fail, recover, cancel, …), each step changing its
 * truth and returning the events the provider would send; the handler reads the truth back through
 * `provider` (readMembershipState, membershipSubscriptionOfCheckout, paymentDetails). Any other
 * provider call throws: the writer makes none.
 */
export class FakeMembershipBilling {
  readonly subscriptions = new Map<string, Subscription>();
  readonly checkouts = new Map<string, string>();
  readonly payments = new Map<string, PaymentDetails>();
  /** The platform's balance as the provider keeps it: what reconciliation compares the ledger with. */
  readonly transactions: ProviderBalanceTransaction[] = [];
  /** How often each read was asked for. */
  readonly reads = { state: 0, details: 0 };
  clock = new Date("2026-11-01T12:00:00Z");

  readonly provider: PaymentProvider = new Proxy({} as PaymentProvider, {
    get: (_target, name) => {
      switch (name) {
        case "name":
          return "sandbox";
        case "readMembershipState":
          return async (subscriptionId: string) => {
            this.reads.state += 1;
            const sub = this.subscriptions.get(subscriptionId);
            if (!sub) throw new Error(`no such subscription ${subscriptionId}`);
            const { nextAmount: _next, ...state } = structuredClone(sub);
            return state satisfies ProviderMembershipState;
          };
        case "membershipSubscriptionOfCheckout":
          return async (checkoutId: string) => this.checkouts.get(checkoutId) ?? null;
        case "paymentDetails":
          return async (paymentIntentId: string) => {
            this.reads.details += 1;
            const details = this.payments.get(paymentIntentId);
            if (!details) throw new Error(`no such payment ${paymentIntentId}`);
            return { ...details };
          };
        case "endMembershipNow":
          return async ({ subscriptionId }: { subscriptionId: string }) => {
            this.endNow(subscriptionId);
          };
        case "listRefunds":
          return async () => [];
        case "listBalanceTransactions":
          return async (period: Period) => this.transactions.filter((t) => t.created >= period.from && t.created < period.to);
        case "then":
          return undefined;
        default:
          return () => {
            throw new Error(`the fake membership billing has no ${String(name)}`);
          };
      }
    },
  });

  private tick(ms = 60_000): Date {
    this.clock = new Date(this.clock.getTime() + ms);
    return this.clock;
  }

  private event(sub: { subscriptionId: string | null; membershipId: string | null }, cause: PaymentEventOf<"membership.changed">["cause"], checkoutId: string | null = null): PaymentEvent {
    return { provider: "sandbox", eventId: `evt_${rand()}`, occurredAt: this.clock, type: "membership.changed", membershipId: sub.membershipId, subscriptionId: sub.subscriptionId, checkoutId, cause };
  }

  private sub(subscriptionId: string): Subscription {
    const sub = this.subscriptions.get(subscriptionId);
    if (!sub) throw new Error(`no such subscription ${subscriptionId}`);
    return sub;
  }

  private invoice(sub: Subscription, paid: boolean, reason: ProviderMembershipInvoice["reason"], start: Date): ProviderMembershipInvoice {
    const n = sub.invoices.length + 1;
    const invoice: ProviderMembershipInvoice = {
      invoiceId: `${sub.subscriptionId}_in${n}`,
      paymentIntentId: paid ? `pi_${sub.subscriptionId}_${n}` : null,
      amount: sub.nextAmount,
      currency: sub.currency,
      status: paid ? "paid" : "open",
      periodStart: start,
      periodEnd: new Date(start.getTime() + periodMs(sub.interval)),
      paidAt: paid ? this.clock : null,
      reason,
    };
    if (paid) this.pay(invoice);
    sub.invoices.push(invoice);
    return invoice;
  }

  private pay(invoice: ProviderMembershipInvoice) {
    invoice.paymentIntentId ??= `pi_${invoice.invoiceId}`;
    invoice.status = "paid";
    invoice.paidAt = this.clock;
    const pi = invoice.paymentIntentId;
    this.payments.set(pi, { paymentIntentId: pi, chargeId: `ch_${pi}`, gross: invoice.amount, providerFee: fakeCardFee(invoice.amount), currency: invoice.currency });
    // The charge on the platform's balance and the application fee it keeps (application_fee_percent of each invoice).
    this.balance("charge", pi, invoice.amount, fakeCardFee(invoice.amount));
    this.balance("application_fee", pi, platformFeeFor(invoice.amount, TEST_FEE_PERCENT), 0);
  }

  private balance(type: ProviderBalanceTransaction["type"], paymentIntentId: string, amount: number, fee: number, disputeId: string | null = null) {
    const id = `txn_${rand()}`;
    this.transactions.push({ id, type, amount, fee, currency: "usd", created: new Date(), sourceId: `src_${id}`, paymentIntentId, disputeId, sessionId: null });
  }

  /** A paid period refunded whole at the provider (its application fee goes back with it). */
  refund(paymentIntentId: string) {
    const gross = this.payments.get(paymentIntentId)!.gross;
    this.balance("refund", paymentIntentId, -gross, 0);
    this.balance("application_fee_refund", paymentIntentId, -platformFeeFor(gross, TEST_FEE_PERCENT), 0);
  }

  /** A paid period disputed: the money withdrawn with Stripe's dispute fee (`dp_<payment intent>`, as events.disputeChanged names it). */
  dispute(paymentIntentId: string) {
    this.balance("dispute", paymentIntentId, -this.payments.get(paymentIntentId)!.gross, 1500, `dp_${paymentIntentId}`);
  }

  /** A checkout paid: the subscription and its first paid invoice. `paid: false`: its first payment failed (incomplete). */
  join(input: { membershipId: string; checkoutId: string; amount: number; interval?: "month" | "year"; email?: string | null; paid?: boolean }): { subscriptionId: string; events: PaymentEvent[] } {
    const at = this.tick();
    const subscriptionId = `sub_${rand()}`;
    const interval = input.interval ?? "month";
    const sub: Subscription = {
      subscriptionId,
      customerId: `cus_${rand()}`,
      membershipId: input.membershipId,
      status: input.paid === false ? "incomplete" : "active",
      amount: input.amount,
      nextAmount: input.amount,
      currency: "usd",
      interval,
      currentPeriodEnd: new Date(at.getTime() + periodMs(interval)),
      cancelAtPeriodEnd: false,
      endedAt: null,
      customerEmail: input.email === undefined ? "fan@member.example" : input.email,
      invoices: [],
    };
    this.subscriptions.set(subscriptionId, sub);
    this.checkouts.set(input.checkoutId, subscriptionId);
    this.invoice(sub, input.paid !== false, "subscription_create", at);
    const ids = { subscriptionId, membershipId: input.membershipId };
    return {
      subscriptionId,
      events: [this.event({ subscriptionId: null, membershipId: input.membershipId }, "checkout.completed", input.checkoutId), this.event(ids, "subscription.created"), this.event(ids, input.paid === false ? "invoice.payment_failed" : "invoice.paid")],
    };
  }

  private ids(sub: Subscription) {
    return { subscriptionId: sub.subscriptionId, membershipId: sub.membershipId };
  }

  private running(sub: Subscription) {
    return sub.status === "active" || sub.status === "past_due";
  }

  /** The period ran out: a cancelled one ends, any other renews (paid, or `fail`ed: past due, retried). */
  renew(subscriptionId: string, { fail = false }: { fail?: boolean } = {}): PaymentEvent[] {
    const sub = this.sub(subscriptionId);
    if (!this.running(sub)) return [];
    this.tick();
    if (sub.cancelAtPeriodEnd) {
      sub.status = "canceled";
      sub.endedAt = sub.currentPeriodEnd;
      return [this.event(this.ids(sub), "subscription.deleted")];
    }
    const start = sub.currentPeriodEnd;
    sub.amount = sub.nextAmount;
    this.invoice(sub, !fail, "subscription_cycle", start);
    sub.currentPeriodEnd = new Date(start.getTime() + periodMs(sub.interval));
    sub.status = fail ? "past_due" : "active";
    return [this.event(this.ids(sub), fail ? "invoice.payment_failed" : "invoice.paid"), this.event(this.ids(sub), "subscription.updated")];
  }

  /** A past-due renewal paid on retry (a new card). */
  recover(subscriptionId: string): PaymentEvent[] {
    const sub = this.sub(subscriptionId);
    const open = sub.invoices.find((i) => i.status === "open");
    if (sub.status !== "past_due" || !open) return [];
    this.tick();
    this.pay(open);
    sub.status = "active";
    return [this.event(this.ids(sub), "invoice.paid"), this.event(this.ids(sub), "subscription.updated")];
  }

  /** The retries gave up: the open invoice is uncollectible and the subscription ends. */
  giveUp(subscriptionId: string): PaymentEvent[] {
    const sub = this.sub(subscriptionId);
    const open = sub.invoices.find((i) => i.status === "open");
    if (sub.status !== "past_due" || !open) return [];
    this.tick();
    open.status = "uncollectible";
    sub.status = "canceled";
    sub.cancelAtPeriodEnd = false;
    sub.endedAt = this.clock;
    return [this.event(this.ids(sub), "subscription.deleted")];
  }

  setCancelAtPeriodEnd(subscriptionId: string, cancel: boolean): PaymentEvent[] {
    const sub = this.sub(subscriptionId);
    if (!this.running(sub) || sub.cancelAtPeriodEnd === cancel) return [];
    this.tick();
    sub.cancelAtPeriodEnd = cancel;
    return [this.event(this.ids(sub), "subscription.updated")];
  }

  /** A new price from the next renewal (a change of tier). */
  changePrice(subscriptionId: string, amount: number): PaymentEvent[] {
    const sub = this.sub(subscriptionId);
    if (!this.running(sub)) return [];
    this.tick();
    sub.nextAmount = amount;
    sub.amount = amount;
    return [this.event(this.ids(sub), "subscription.updated")];
  }

  endNow(subscriptionId: string): PaymentEvent[] {
    const sub = this.sub(subscriptionId);
    if (!this.running(sub)) return [];
    this.tick();
    sub.status = "canceled";
    sub.cancelAtPeriodEnd = false;
    sub.endedAt = this.clock;
    return [this.event(this.ids(sub), "subscription.deleted")];
  }

  /** The paid periods' payment intents, oldest first. */
  paidIntents(subscriptionId: string): string[] {
    return this.sub(subscriptionId).invoices.flatMap((i) => (i.status === "paid" && i.paymentIntentId ? [i.paymentIntentId] : []));
  }

  state(subscriptionId: string): ProviderMembershipState {
    const { nextAmount: _next, ...state } = structuredClone(this.sub(subscriptionId));
    return state;
  }

  /** A checkout that lapsed unpaid. */
  expiredCheckout(membershipId: string, checkoutId: string): PaymentEvent {
    return this.event({ subscriptionId: null, membershipId }, "checkout.expired", checkoutId);
  }
}

type PaymentEventOf<T extends PaymentEvent["type"]> = Extract<PaymentEvent, { type: T }>;

export type SeededMembership = { creatorUid: string; pageId: string; tierId: string; membershipId: string; checkoutId: string; memberEmail: string | null };

/**
 * A creator with a page and a tier, and a membership whose checkout is open (pending), as joining
 * leaves it. `memberEmail: null`: the address is the checkout's to give.
 */
export async function seedPendingMembership(
  db: Db,
  { amount = 500, tierName = "Gold", memberName = "Maya Fan", memberEmail = `fan_${rand()}@member.example`, welcomeMessage = "Thanks for joining!", private: keptPrivate = false }: { amount?: number; tierName?: string; memberName?: string | null; memberEmail?: string | null; welcomeMessage?: string; private?: boolean } = {},
): Promise<SeededMembership> {
  const creatorUid = `creator_${rand()}`;
  const pageId = `page${rand()}`;
  const tierId = `tier_${rand()}`;
  const membershipId = `mem_${rand()}`;
  const checkoutId = `cs_${rand()}`;
  await db.insert(user).values({ id: creatorUid, name: `Creator ${creatorUid}`, email: `${creatorUid}@pay.example`, emailVerified: true });
  await db.insert(bioPages).values({ id: pageId, uid: creatorUid, customEnding: `page_${rand()}`, name: "Maya Makes" });
  await db.insert(membershipTiers).values({ id: tierId, bioPageId: pageId, name: tierName, monthlyPrice: amount, welcomeMessage });
  await db.insert(memberships).values({
    id: membershipId,
    tierId,
    bioPageId: pageId,
    creatorUid,
    memberEmail,
    memberName,
    private: keptPrivate,
    provider: "sandbox",
    providerCheckoutId: checkoutId,
    destinationAccountId: `acct_${rand()}`,
    amount,
    // A row written a while before the provider's truth is read, as joining writes it.
    updatedAt: new Date("2026-01-01T00:00:00Z"),
    created: new Date("2026-01-01T00:00:00Z"),
  });
  return { creatorUid, pageId, tierId, membershipId, checkoutId, memberEmail };
}
