import { and, desc, eq } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { refusal, success, type Refusal, type Success } from "#server/platform/errors";
import {
  sandboxAccounts,
  sandboxMembershipCheckouts,
  sandboxMembershipCustomers,
  sandboxMembershipInvoices,
  sandboxMembershipSubscriptions,
  sandboxPayments,
} from "#server/providers/payments/sandbox/schema";
import { type CardErrorCode, type CardField, type CardInput, checkCard } from "./cards";
import { successUrlFor } from "./checkouts";
import { SandboxRequestError } from "./errors";
import { sandboxId } from "./ids";
import {
  expireLockedMembershipCheckout,
  expireMembershipCheckoutIfDue,
  findMembershipCheckout,
  findMembershipSubscription,
  invoicePaymentRow,
  nextPeriodEnd,
  payOpenInvoice,
  recordMembershipChanged,
} from "./memberships";
import { checkoutExpired, checkoutNotFound, emailProblem, type PaymentForm, type PaymentFormField } from "./pay";
import { checkLink, type LinkCheck, signLink } from "./signing";

export type MembershipPayResult =
  | Success<{ outcome: "PAID"; subscriptionId: string; paymentIntentId: string; redirectTo: string }>
  | Success<{ outcome: "ALREADY_PAID"; redirectTo: string }>
  | Refusal<"gone", "EXPIRED">
  | Refusal<"not-found", "NOT_FOUND">
  /** The creator's account stopped taking charges after the checkout opened: nothing is charged. */
  | Refusal<"aborted", "PAYEE_UNAVAILABLE">
  | Refusal<"payment-required", CardErrorCode | "invalid_email", { field: PaymentFormField }>;

export const PAYEE_UNAVAILABLE_MESSAGE = "This creator cannot take payments right now. Nothing was charged.";

/** What the membership checkout page shows. Opening one whose time is up expires it there and then, as Stripe's page does. */
export async function loadMembershipCheckoutView(db: Db, checkoutId: string, now: Date) {
  const checkout = await expireMembershipCheckoutIfDue(db, checkoutId, now);
  if (!checkout) return null;
  const [account] = await db.select().from(sandboxAccounts).where(eq(sandboxAccounts.id, checkout.accountId));
  return {
    status: checkout.status,
    productName: checkout.productName,
    amount: checkout.amount,
    currency: checkout.currency,
    interval: checkout.interval,
    payee: account?.legalName ?? account?.email ?? "the creator",
    email: checkout.customerEmail ?? "",
    cancelUrl: checkout.cancelUrl,
    successUrl: checkout.status === "complete" ? successUrlFor(checkout) : null,
  };
}

/**
 * Pays a membership checkout with a test card: in one transaction, with the checkout row locked so
 * that double submits make one subscription, the member becomes a customer with the card on file
 * (the 0341 card remembered as one whose renewals fail), the subscription starts its first period
 * now, and its first invoice is paid by a destination charge. Stores `subscription.created`,
 * `invoice.paid` and `checkout.completed`.
 */
export async function payMembershipCheckout(db: Db, checkoutId: string, form: PaymentForm, now: Date): Promise<MembershipPayResult> {
  const seen = await findMembershipCheckout(db, checkoutId);
  if (!seen) return checkoutNotFound();
  if (seen.status === "complete") return success({ outcome: "ALREADY_PAID", redirectTo: successUrlFor(seen) });
  if (seen.status === "expired" || seen.expiresAt <= now) {
    await expireMembershipCheckoutIfDue(db, checkoutId, now);
    return checkoutExpired();
  }
  const email = form.email.trim();
  const badEmail = emailProblem(email);
  if (badEmail) return refusal("payment-required", "invalid_email", badEmail, { field: "email" });
  const card = checkCard(form, now);
  if (card.kind === "ERROR") return card;

  return db.transaction(async (tx): Promise<MembershipPayResult> => {
    const checkout = await findMembershipCheckout(tx, checkoutId, true);
    if (!checkout) return checkoutNotFound();
    if (checkout.status === "complete") return success({ outcome: "ALREADY_PAID", redirectTo: successUrlFor(checkout) });
    if ((await expireLockedMembershipCheckout(tx, checkout, now)).status === "expired") return checkoutExpired();
    const [account] = await tx.select({ chargesEnabled: sandboxAccounts.chargesEnabled }).from(sandboxAccounts).where(eq(sandboxAccounts.id, checkout.accountId));
    if (!account?.chargesEnabled) return refusal("aborted", "PAYEE_UNAVAILABLE", PAYEE_UNAVAILABLE_MESSAGE);

    const [customer] = await tx
      .insert(sandboxMembershipCustomers)
      .values({ id: sandboxId("cus"), email, cardBrand: card.brand, cardLast4: card.last4, cardFailsRenewal: card.failsLaterCharges === true, created: now })
      .returning();
    const [sub] = await tx
      .insert(sandboxMembershipSubscriptions)
      .values({
        id: sandboxId("sub"),
        checkoutId: checkout.id,
        customerId: customer!.id,
        accountId: checkout.accountId,
        membershipId: checkout.membershipId,
        productName: checkout.productName,
        amount: checkout.amount,
        currency: checkout.currency,
        interval: checkout.interval,
        applicationFeeBasisPoints: checkout.applicationFeeBasisPoints,
        status: "active",
        currentPeriodStart: now,
        currentPeriodEnd: nextPeriodEnd(now, checkout.interval, now),
        created: now,
      })
      .returning();
    const invoiceId = sandboxId("in");
    const paymentIntentId = sandboxId("pi");
    await tx.insert(sandboxMembershipInvoices).values({
      id: invoiceId,
      subscriptionId: sub!.id,
      amount: sub!.amount,
      currency: sub!.currency,
      status: "paid",
      periodStart: sub!.currentPeriodStart,
      periodEnd: sub!.currentPeriodEnd,
      paymentIntentId,
      paidAt: now,
      reason: "subscription_create",
      created: now,
    });
    await tx.insert(sandboxPayments).values(
      invoicePaymentRow(
        {
          paymentIntentId,
          invoiceId,
          accountId: sub!.accountId,
          amount: sub!.amount,
          currency: sub!.currency,
          applicationFeeBasisPoints: sub!.applicationFeeBasisPoints,
          email,
          cardBrand: card.brand,
          cardLast4: card.last4,
        },
        now,
      ),
    );
    await tx.update(sandboxMembershipCheckouts).set({ status: "complete", customerEmail: email }).where(eq(sandboxMembershipCheckouts.id, checkout.id));
    await recordMembershipChanged(tx, sub!, "subscription.created", now);
    await recordMembershipChanged(tx, sub!, "invoice.paid", now);
    await recordMembershipChanged(tx, sub!, "checkout.completed", now);
    return success({ outcome: "PAID", subscriptionId: sub!.id, paymentIntentId, redirectTo: successUrlFor(checkout) });
  });
}

/* The member's card page: Stripe's hosted page to update a subscription's payment method. */

/** How long a card link works (Stripe's billing portal sessions are short-lived too). */
export const MEMBERSHIP_CARD_LINK_SECONDS = 60 * 60;
const seconds = (now: Date) => Math.floor(now.getTime() / 1000);

/** A signed link to the card page of one subscription, returning to a page of ours. */
export function membershipCardLink(origin: string, key: string, input: { subscriptionId: string; returnUrl: string }, now: Date): string {
  let url: URL | null;
  try {
    url = new URL(input.returnUrl);
  } catch {
    url = null;
  }
  if (!url || url.origin !== origin) throw new SandboxRequestError("url_invalid", `return_url must be a URL on ${origin}`);
  const expires = seconds(now) + MEMBERSHIP_CARD_LINK_SECONDS;
  const sig = signLink(key, ["membership-card", input.subscriptionId, input.returnUrl], expires);
  return `${origin}/sandbox/membership-card/${input.subscriptionId}?${new URLSearchParams({ return: input.returnUrl, expires: String(expires), sig })}`;
}

export function checkMembershipCardLink(key: string, subscriptionId: string, search: URLSearchParams, now: Date): LinkCheck {
  return checkLink(key, ["membership-card", subscriptionId, search.get("return") ?? ""], search.get("expires"), search.get("sig"), seconds(now));
}

async function openInvoiceOf(db: Parameters<typeof findMembershipSubscription>[0], subscriptionId: string) {
  const [invoice] = await db
    .select()
    .from(sandboxMembershipInvoices)
    .where(and(eq(sandboxMembershipInvoices.subscriptionId, subscriptionId), eq(sandboxMembershipInvoices.status, "open")))
    .orderBy(desc(sandboxMembershipInvoices.periodStart))
    .limit(1);
  return invoice ?? null;
}

/** What the card page shows: the membership, its card on file and what is owed. */
export async function readMembershipCardPage(db: Db, subscriptionId: string) {
  const sub = await findMembershipSubscription(db, subscriptionId);
  if (!sub) return null;
  const [customer] = await db.select().from(sandboxMembershipCustomers).where(eq(sandboxMembershipCustomers.id, sub.customerId));
  const open = sub.status === "past_due" ? await openInvoiceOf(db, sub.id) : null;
  return {
    productName: sub.productName,
    amount: sub.amount,
    currency: sub.currency,
    interval: sub.interval,
    status: sub.status,
    cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
    currentPeriodEnd: sub.currentPeriodEnd,
    email: customer?.email ?? "",
    card: customer?.cardLast4 ? { brand: customer.cardBrand ?? "card", last4: customer.cardLast4, failsRenewal: customer.cardFailsRenewal } : null,
    owed: open ? { amount: open.amount, currency: open.currency } : null,
  };
}

export type MembershipCardResult =
  | Success<{ message: string; paymentIntentId: string | null }>
  | Refusal<"aborted", "ENDED">
  | Refusal<"not-found", "NOT_FOUND">
  | Refusal<"payment-required", CardErrorCode | "renewal_failed", { field: CardField }>;

/**
 * The member's new card becomes the one on file. A past-due subscription's open invoice is paid
 * with it at once (a paid invoice and its charge; `invoice.paid` and `subscription.updated`),
 * unless it is a card whose later charges fail: then the retry fails as Stripe's would, and the
 * card is kept all the same. The subscription row is locked, so two submits pay the invoice once.
 */
export async function updateMembershipCard(db: Db, subscriptionId: string, input: CardInput, now: Date): Promise<MembershipCardResult> {
  const card = checkCard(input, now);
  if (card.kind === "ERROR") return card;
  return db.transaction(async (tx): Promise<MembershipCardResult> => {
    const sub = await findMembershipSubscription(tx, subscriptionId, true);
    if (!sub) return refusal("not-found", "NOT_FOUND", "There is no such membership.");
    if (sub.status === "canceled") return refusal("aborted", "ENDED", "This membership has ended: there is no card to update.");
    const [customer] = await tx
      .update(sandboxMembershipCustomers)
      .set({ cardBrand: card.brand, cardLast4: card.last4, cardFailsRenewal: card.failsLaterCharges === true })
      .where(eq(sandboxMembershipCustomers.id, sub.customerId))
      .returning();
    const open = sub.status === "past_due" ? await openInvoiceOf(tx, sub.id) : null;
    if (!open) return success({ message: "Your card was updated. Your next renewal will be charged to it.", paymentIntentId: null });
    if (card.failsLaterCharges) {
      await recordMembershipChanged(tx, sub, "invoice.payment_failed", now);
      return refusal("payment-required", "renewal_failed", "The card was saved, but the payment of your renewal failed again. Use another card.", { field: "number" });
    }
    const paymentIntentId = await payOpenInvoice(tx, sub, open, customer!, now);
    await tx.update(sandboxMembershipSubscriptions).set({ status: "active" }).where(eq(sandboxMembershipSubscriptions.id, sub.id));
    await recordMembershipChanged(tx, sub, "invoice.paid", now);
    await recordMembershipChanged(tx, sub, "subscription.updated", now);
    return success({ message: "Your card was updated and the unpaid renewal was paid with it. Your membership is active again.", paymentIntentId });
  });
}
