import { and, asc, eq, inArray, lte } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import type { PaymentEventOf } from "#server/providers/payments/events";
import type { CheckoutCreated, MembershipBilling, MembershipCheckoutInput, ProviderMembershipState } from "#server/providers/payments/port";
import {
  sandboxAccounts,
  sandboxMembershipCheckouts,
  sandboxMembershipCustomers,
  sandboxMembershipInvoices,
  sandboxMembershipSubscriptions,
  sandboxPayments,
} from "#server/providers/payments/sandbox/schema";
import { CHECKOUT_LIFETIME_MS, checkCommon, checkReference } from "./checkouts";
import { missing, SandboxRequestError } from "./errors";
import { applicationFeeOf, splitCharge } from "./fees";
import { sandboxId } from "./ids";
import { type DbOrTx, recordSandboxEvent, type SandboxEventBody } from "./outbox";

/**
 * The sandbox's membership billing (ADR 0084), as Stripe Billing behaves for a subscription with
 * `transfer_data.destination` and `application_fee_percent`: a hosted checkout in subscription mode
 * (./membership-pay.ts pays it), a subscription with a current period, one invoice per period, and
 * every paid invoice a destination charge in sandbox_payments exactly as a tip's, so payment
 * details, refunds, disputes and balance transactions treat a renewal as they treat a tip. Every
 * change stores `membership.changed` in its own transaction; our handler then reads the
 * subscription fresh (readSandboxMembershipState). The test clock is ./membership-clock.ts.
 */
export type SandboxMembershipCheckout = typeof sandboxMembershipCheckouts.$inferSelect;
export type SandboxMembershipSubscription = typeof sandboxMembershipSubscriptions.$inferSelect;
export type SandboxMembershipCustomer = typeof sandboxMembershipCustomers.$inferSelect;
export type MembershipCause = PaymentEventOf<"membership.changed">["cause"];
type Interval = "month" | "year";

export function membershipCheckoutUrl(origin: string, checkoutId: string): string {
  return `${origin}/sandbox/membership-checkout/${checkoutId}`;
}

/** The event our handler converges on: which membership, subscription and checkout, and why. */
export function membershipChanged(
  ids: { membershipId: string; subscriptionId: string | null; checkoutId: string | null },
  cause: MembershipCause,
): SandboxEventBody {
  return { type: "membership.changed", membershipId: ids.membershipId, subscriptionId: ids.subscriptionId, checkoutId: ids.checkoutId, cause };
}

export async function recordMembershipChanged(tx: DbOrTx, sub: Pick<SandboxMembershipSubscription, "id" | "membershipId" | "checkoutId">, cause: MembershipCause, now: Date) {
  await recordSandboxEvent(tx, membershipChanged({ membershipId: sub.membershipId, subscriptionId: sub.id, checkoutId: sub.checkoutId }, cause), now);
}

/**
 * The end of the period that starts at `from`, as Stripe bills on a billing cycle anchor: a month
 * or a year later on the anchor's day of the month, or the month's last day when it has no such
 * day (a subscription begun on 31 January renews on 28 February, then on 31 March).
 */
export function nextPeriodEnd(from: Date, interval: Interval, anchor: Date): Date {
  const months = from.getUTCFullYear() * 12 + from.getUTCMonth() + (interval === "month" ? 1 : 12);
  const year = Math.floor(months / 12);
  const month = months % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(Date.UTC(year, month, Math.min(anchor.getUTCDate(), lastDay), from.getUTCHours(), from.getUTCMinutes(), from.getUTCSeconds(), from.getUTCMilliseconds()));
}

/** Stripe's application_fee_percent takes at most two decimals, 0 to 100: as basis points. */
function basisPointsOf(percent: number): number {
  const points = Math.round(percent * 100);
  if (!Number.isFinite(percent) || percent < 0 || percent > 100 || Math.abs(percent * 100 - points) > 1e-6) {
    throw new SandboxRequestError("parameter_invalid", "application_fee_percent must be between 0 and 100 with at most two decimals");
  }
  return points;
}

function checkInterval(interval: string): asserts interval is Interval {
  if (interval !== "month" && interval !== "year") throw new SandboxRequestError("parameter_invalid", "interval must be month or year");
}

/**
 * A hosted membership checkout paying to an account that can take charges (Stripe refuses a
 * destination without the capability), with the same checks as a tip's. The same idempotency key
 * returns the same checkout; the key with other parameters is refused.
 */
export async function createSandboxMembershipCheckout(db: Db, origin: string, input: MembershipCheckoutInput, now: Date): Promise<CheckoutCreated> {
  checkCommon(input);
  checkReference("membership id", input.membershipId);
  checkInterval(input.interval);
  const basisPoints = basisPointsOf(input.applicationFeePercent);
  const [account] = await db.select().from(sandboxAccounts).where(eq(sandboxAccounts.id, input.destinationAccountId));
  if (!account) throw missing("account", input.destinationAccountId);
  if (!account.chargesEnabled) throw new SandboxRequestError("account_not_ready", "The destination account has not finished onboarding and cannot take charges yet");
  const [created] = await db
    .insert(sandboxMembershipCheckouts)
    .values({
      id: sandboxId("cs"),
      idempotencyKey: input.idempotencyKey,
      accountId: account.id,
      membershipId: input.membershipId,
      productName: input.productName.trim(),
      amount: input.amount,
      currency: input.currency,
      interval: input.interval,
      applicationFeeBasisPoints: basisPoints,
      customerEmail: input.memberEmail,
      successUrl: input.successUrl,
      cancelUrl: input.cancelUrl,
      expiresAt: new Date(now.getTime() + CHECKOUT_LIFETIME_MS),
      created: now,
    })
    .onConflictDoNothing({ target: sandboxMembershipCheckouts.idempotencyKey })
    .returning();
  const checkout = created ?? (await db.select().from(sandboxMembershipCheckouts).where(eq(sandboxMembershipCheckouts.idempotencyKey, input.idempotencyKey)))[0];
  if (!checkout) throw new SandboxRequestError("idempotency_key_in_use", "The idempotency key's first request has not finished; try again");
  if (
    checkout.membershipId !== input.membershipId ||
    checkout.amount !== input.amount ||
    checkout.accountId !== account.id ||
    checkout.interval !== input.interval ||
    checkout.applicationFeeBasisPoints !== basisPoints
  ) {
    throw new SandboxRequestError("idempotency_key_in_use", "This idempotency key was used with other parameters");
  }
  return { checkoutId: checkout.id, url: membershipCheckoutUrl(origin, checkout.id), expiresAt: checkout.expiresAt };
}

export async function findMembershipCheckout(db: DbOrTx, checkoutId: string, lock = false): Promise<SandboxMembershipCheckout | null> {
  const query = db.select().from(sandboxMembershipCheckouts).where(eq(sandboxMembershipCheckouts.id, checkoutId));
  const [row] = lock ? await query.for("update") : await query;
  return row ?? null;
}

/** Inside the caller's transaction, with the checkout row locked: marks it expired and stores its event, once. */
export async function expireLockedMembershipCheckout(tx: DbOrTx, checkout: SandboxMembershipCheckout, now: Date): Promise<SandboxMembershipCheckout> {
  if (checkout.status !== "open" || checkout.expiresAt > now) return checkout;
  const [expired] = await tx.update(sandboxMembershipCheckouts).set({ status: "expired" }).where(eq(sandboxMembershipCheckouts.id, checkout.id)).returning();
  await recordSandboxEvent(tx, membershipChanged({ membershipId: checkout.membershipId, subscriptionId: null, checkoutId: checkout.id }, "checkout.expired"), now);
  return expired!;
}

export async function expireMembershipCheckoutIfDue(db: Db, checkoutId: string, now: Date): Promise<SandboxMembershipCheckout | null> {
  return db.transaction(async (tx) => {
    const checkout = await findMembershipCheckout(tx, checkoutId, true);
    return checkout ? expireLockedMembershipCheckout(tx, checkout, now) : null;
  });
}

/** The sweep's share for memberships: open checkouts past their time expire whether or not anyone looks. */
export async function expireDueMembershipCheckouts(db: Db, now: Date, limit = 100): Promise<number> {
  const due = await db
    .select({ id: sandboxMembershipCheckouts.id })
    .from(sandboxMembershipCheckouts)
    .where(and(eq(sandboxMembershipCheckouts.status, "open"), lte(sandboxMembershipCheckouts.expiresAt, now)))
    .limit(limit);
  let expired = 0;
  for (const { id } of due) {
    const row = await expireMembershipCheckoutIfDue(db, id, now);
    if (row?.status === "expired") expired += 1;
  }
  return expired;
}

export async function findMembershipSubscription(db: DbOrTx, subscriptionId: string, lock = false): Promise<SandboxMembershipSubscription | null> {
  const query = db.select().from(sandboxMembershipSubscriptions).where(eq(sandboxMembershipSubscriptions.id, subscriptionId));
  const [row] = lock ? await query.for("update") : await query;
  return row ?? null;
}

/** What one paid invoice of a subscription charges: a destination charge to its account less the application fee. */
export type InvoiceCharge = {
  paymentIntentId: string;
  invoiceId: string;
  accountId: string;
  amount: number;
  currency: string;
  applicationFeeBasisPoints: number;
  email: string;
  cardBrand: string | null;
  cardLast4: string | null;
};

/** The sandbox_payments row of a paid invoice, split exactly as a tip's destination charge (./pay.ts). */
export function invoicePaymentRow(charge: InvoiceCharge, now: Date): typeof sandboxPayments.$inferInsert {
  const split = splitCharge(charge.amount, applicationFeeOf(charge.amount, charge.applicationFeeBasisPoints));
  return {
    id: charge.paymentIntentId,
    chargeId: sandboxId("ch"),
    checkoutId: null,
    membershipInvoiceId: charge.invoiceId,
    accountId: charge.accountId,
    amount: split.gross,
    fee: split.fee,
    applicationFee: split.applicationFee,
    net: split.net,
    currency: charge.currency,
    email: charge.email,
    cardBrand: charge.cardBrand ?? "card",
    cardLast4: charge.cardLast4 ?? "0000",
    created: now,
  };
}

/** An open invoice paid now (a new card, or its retry), with its charge: the caller holds the subscription's lock. */
export async function payOpenInvoice(
  tx: DbOrTx,
  sub: SandboxMembershipSubscription,
  invoice: typeof sandboxMembershipInvoices.$inferSelect,
  customer: SandboxMembershipCustomer,
  now: Date,
): Promise<string> {
  const paymentIntentId = sandboxId("pi");
  await tx.update(sandboxMembershipInvoices).set({ status: "paid", paymentIntentId, paidAt: now }).where(eq(sandboxMembershipInvoices.id, invoice.id));
  await tx.insert(sandboxPayments).values(
    invoicePaymentRow(
      {
        paymentIntentId,
        invoiceId: invoice.id,
        accountId: sub.accountId,
        amount: invoice.amount,
        currency: invoice.currency,
        applicationFeeBasisPoints: sub.applicationFeeBasisPoints,
        email: customer.email,
        cardBrand: customer.cardBrand,
        cardLast4: customer.cardLast4,
      },
      now,
    ),
  );
  return paymentIntentId;
}

/** The subscription found by the checkout that made it; null while that checkout is unpaid. */
export async function sandboxMembershipSubscriptionOfCheckout(db: Db, checkoutId: string): Promise<string | null> {
  if (!(await findMembershipCheckout(db, checkoutId))) throw missing("checkout", checkoutId);
  const [row] = await db.select({ id: sandboxMembershipSubscriptions.id }).from(sandboxMembershipSubscriptions).where(eq(sandboxMembershipSubscriptions.checkoutId, checkoutId));
  return row?.id ?? null;
}

/** The provider's truth about one subscription, read fresh: invoices oldest first. */
export async function readSandboxMembershipState(db: DbOrTx, subscriptionId: string): Promise<ProviderMembershipState> {
  const [row] = await db
    .select({ sub: sandboxMembershipSubscriptions, email: sandboxMembershipCustomers.email })
    .from(sandboxMembershipSubscriptions)
    .innerJoin(sandboxMembershipCustomers, eq(sandboxMembershipCustomers.id, sandboxMembershipSubscriptions.customerId))
    .where(eq(sandboxMembershipSubscriptions.id, subscriptionId));
  if (!row) throw missing("subscription", subscriptionId);
  const { sub } = row;
  const invoices = await db
    .select()
    .from(sandboxMembershipInvoices)
    .where(eq(sandboxMembershipInvoices.subscriptionId, subscriptionId))
    .orderBy(asc(sandboxMembershipInvoices.periodStart), asc(sandboxMembershipInvoices.created));
  return {
    subscriptionId: sub.id,
    customerId: sub.customerId,
    membershipId: sub.membershipId,
    status: sub.status,
    amount: sub.amount,
    currency: sub.currency,
    interval: sub.interval,
    currentPeriodEnd: sub.currentPeriodEnd,
    cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
    endedAt: sub.endedAt,
    // A deleted member (account deletion) keeps no address.
    customerEmail: row.email || null,
    invoices: invoices.map((invoice) => ({
      invoiceId: invoice.id,
      paymentIntentId: invoice.paymentIntentId,
      amount: invoice.amount,
      currency: invoice.currency,
      status: invoice.status,
      periodStart: invoice.periodStart,
      periodEnd: invoice.periodEnd,
      paidAt: invoice.paidAt,
      reason: invoice.reason,
    })),
  };
}

/** One change of a subscription, its row locked: the cause to record, or null when nothing changed (a retry). */
async function changeSubscription(
  db: Db,
  subscriptionId: string,
  now: Date,
  change: (tx: DbOrTx, sub: SandboxMembershipSubscription) => Promise<MembershipCause | null>,
): Promise<void> {
  await db.transaction(async (tx) => {
    const sub = await findMembershipSubscription(tx, subscriptionId, true);
    if (!sub) throw missing("subscription", subscriptionId);
    const cause = await change(tx, sub);
    if (cause) await recordMembershipChanged(tx, sub, cause, now);
  });
}

const ENDED = (id: string) => new SandboxRequestError("parameter_invalid", `Subscription ${id} has ended (canceled); a canceled subscription cannot be changed.`);

/** A new price, interval or name from the next renewal (no proration). Asking again for what is set changes nothing. */
export async function changeSandboxMembershipPrice(
  db: Db,
  input: { subscriptionId: string; amount: number; interval: Interval; productName: string },
  now: Date,
): Promise<void> {
  checkCommon({ amount: input.amount, currency: "usd", productName: input.productName, successUrl: "https://x.invalid", cancelUrl: "https://x.invalid" });
  checkInterval(input.interval);
  const productName = input.productName.trim();
  await changeSubscription(db, input.subscriptionId, now, async (tx, sub) => {
    if (sub.status === "canceled") throw ENDED(sub.id);
    if (sub.amount === input.amount && sub.interval === input.interval && sub.productName === productName) return null;
    await tx.update(sandboxMembershipSubscriptions).set({ amount: input.amount, interval: input.interval, productName }).where(eq(sandboxMembershipSubscriptions.id, sub.id));
    return "subscription.updated";
  });
}

/** Cancel at the period's end, or undo it; asking for what is set changes nothing. */
export async function setSandboxMembershipCancelAtPeriodEnd(db: Db, input: { subscriptionId: string; cancelAtPeriodEnd: boolean }, now: Date): Promise<void> {
  await changeSubscription(db, input.subscriptionId, now, async (tx, sub) => {
    if (sub.status === "canceled") {
      // Cancelling what already ended is done; resuming it is not possible.
      if (input.cancelAtPeriodEnd) return null;
      throw ENDED(sub.id);
    }
    if (sub.cancelAtPeriodEnd === input.cancelAtPeriodEnd) return null;
    await tx.update(sandboxMembershipSubscriptions).set({ cancelAtPeriodEnd: input.cancelAtPeriodEnd }).where(eq(sandboxMembershipSubscriptions.id, sub.id));
    return "subscription.updated";
  });
}

/** Ends it now, without a refund; an unpaid invoice is voided. Ending an ended one does nothing. */
export async function endSandboxMembershipNow(db: Db, input: { subscriptionId: string }, now: Date): Promise<void> {
  await changeSubscription(db, input.subscriptionId, now, async (tx, sub) => {
    if (sub.status === "canceled") return null;
    await tx.update(sandboxMembershipSubscriptions).set({ status: "canceled", cancelAtPeriodEnd: false, endedAt: now }).where(eq(sandboxMembershipSubscriptions.id, sub.id));
    await tx
      .update(sandboxMembershipInvoices)
      .set({ status: "void" })
      .where(and(eq(sandboxMembershipInvoices.subscriptionId, sub.id), eq(sandboxMembershipInvoices.status, "open")));
    return "subscription.deleted";
  });
}

/** A deleted member (account deletion, ADR 0031): their subscriptions end now and the customer keeps no email or card. */
export async function deleteSandboxMembershipCustomer(tx: DbOrTx, customerId: string, now: Date): Promise<void> {
  const running = await tx
    .select()
    .from(sandboxMembershipSubscriptions)
    .where(and(eq(sandboxMembershipSubscriptions.customerId, customerId), inArray(sandboxMembershipSubscriptions.status, ["active", "past_due"])))
    .for("update");
  for (const sub of running) {
    await tx.update(sandboxMembershipSubscriptions).set({ status: "canceled", cancelAtPeriodEnd: false, endedAt: now }).where(eq(sandboxMembershipSubscriptions.id, sub.id));
    await tx
      .update(sandboxMembershipInvoices)
      .set({ status: "void" })
      .where(and(eq(sandboxMembershipInvoices.subscriptionId, sub.id), eq(sandboxMembershipInvoices.status, "open")));
    await recordMembershipChanged(tx, sub, "subscription.deleted", now);
  }
  await tx.update(sandboxMembershipCustomers).set({ email: "", cardBrand: null, cardLast4: null, cardFailsRenewal: false }).where(eq(sandboxMembershipCustomers.id, customerId));
}

/** MembershipBilling on the sandbox; each call that stores an event kicks the outbox so it goes now. */
export function sandboxMembershipBilling(deps: {
  db: Db;
  origin: string;
  now: () => Date;
  kick: () => void;
  cardLink: (input: { subscriptionId: string; returnUrl: string }, now: Date) => string;
}): MembershipBilling {
  const { db, origin, now, kick } = deps;
  const kicking =
    <I>(call: (db: Db, input: I, now: Date) => Promise<void>) =>
    async (input: I) => {
      await call(db, input, now());
      kick();
    };
  return {
    createMembershipCheckout: (input) => createSandboxMembershipCheckout(db, origin, input, now()),
    membershipSubscriptionOfCheckout: (checkoutId) => sandboxMembershipSubscriptionOfCheckout(db, checkoutId),
    readMembershipState: (subscriptionId) => readSandboxMembershipState(db, subscriptionId),
    changeMembershipPrice: kicking(changeSandboxMembershipPrice),
    setMembershipCancelAtPeriodEnd: kicking(setSandboxMembershipCancelAtPeriodEnd),
    endMembershipNow: kicking(endSandboxMembershipNow),
    async createMembershipCardLink(input) {
      const sub = await findMembershipSubscription(db, input.subscriptionId);
      if (!sub || sub.customerId !== input.customerId) throw missing("subscription", input.subscriptionId);
      return { url: deps.cardLink({ subscriptionId: sub.id, returnUrl: input.returnUrl }, now()) };
    },
  };
}
