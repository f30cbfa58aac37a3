import { eq } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { sandboxCheckouts, sandboxPayments } from "#server/providers/payments/sandbox/schema";
import { refusal, success, type Refusal, type Success } from "#server/platform/errors";
import { type CardErrorCode, type CardField, type CardInput, checkCard } from "./cards";
import { expireLockedCheckout, findSandboxCheckout, successUrlFor } from "./checkouts";
import { holdCharge, splitCharge } from "./fees";
import { sandboxId } from "./ids";
import { recordSandboxEvent } from "./outbox";

export type PaymentForm = CardInput & { email: string };
export type PaymentFormField = CardField | "email";

export const EXPIRED_CHECKOUT_MESSAGE = "This checkout has expired. Nothing was charged.";

/** Paid now, or paid before (a second submit lands where the first went; nothing is charged again). */
export type PayResult =
  | Success<{ outcome: "PAID"; paymentIntentId: string; redirectTo: string }>
  | Success<{ outcome: "ALREADY_PAID"; redirectTo: string }>
  | Refusal<"gone", "EXPIRED">
  | Refusal<"not-found", "NOT_FOUND">
  /** The payee's account was disabled after the checkout opened: nothing is charged. */
  | Refusal<"aborted", "PAYEE_UNAVAILABLE">
  /** A card the sandbox declines (Stripe's decline code as the reason), or an email it cannot send a receipt to. */
  | Refusal<"payment-required", CardErrorCode | "invalid_email", { field: PaymentFormField }>;

export const checkoutNotFound = () => refusal("not-found", "NOT_FOUND", "There is no such checkout.");
export const checkoutExpired = () => refusal("gone", "EXPIRED", EXPIRED_CHECKOUT_MESSAGE);

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function emailProblem(email: string): string | null {
  const trimmed = email.trim();
  if (!trimmed) return "Your email address is incomplete.";
  if (trimmed.length > 254 || !EMAIL.test(trimmed)) return "Your email address is invalid.";
  return null;
}

/**
 * Pays a checkout with a test card. A refused card changes nothing. The
 * checkout row is locked while the payment is made, so a double submit, the
 * back button or two tabs make exactly one payment: the later ones find it
 * complete and are sent to the success page.
 */
/**
 * Why a sponsor session's payee cannot be paid now (its owner was disabled
 * after the checkout opened), or null. The app's rule, handed in by the
 * composition root: the sandbox runs in our process, so it can ask before it
 * charges, where Stripe's hosted page cannot.
 */
export type PayeeCheck = (sessionId: string) => Promise<string | null>;

/**
 * For a sandbox no app stands behind (its own tests, a backup's fixtures): every payee may be paid.
 * Never the app's: the composition root always hands in the app's rule, and a sandbox cannot be
 * made without one, so no caller can forget it.
 */
export const EVERY_PAYEE_PAYABLE: PayeeCheck = async () => null;

export async function payCheckout(db: Db, checkoutId: string, form: PaymentForm, now: Date, whyNotPayable: PayeeCheck): Promise<PayResult> {
  const seen = await findSandboxCheckout(db, checkoutId);
  if (!seen) return checkoutNotFound();
  if (seen.status === "complete") return success({ outcome: "ALREADY_PAID", redirectTo: successUrlFor(seen) });
  if (seen.status === "expired" || seen.expiresAt <= now) {
    await db.transaction(async (tx) => {
      const locked = await findSandboxCheckout(tx, checkoutId, true);
      if (locked) await expireLockedCheckout(tx, locked, now);
    });
    return checkoutExpired();
  }
  // The app's rule is about a tip's creator; a held payment (a deal's) goes to no one yet, and its
  // sessionId is a deal_fundings id the rule does not know.
  const payeeProblem = seen.purpose === "sponsor" && seen.sessionId ? await whyNotPayable(seen.sessionId) : null;
  if (payeeProblem) return refusal("aborted", "PAYEE_UNAVAILABLE", payeeProblem);
  const email = form.email.trim();
  const badEmail = emailProblem(email);
  if (badEmail) return refusal("payment-required", "invalid_email", badEmail, { field: "email" });
  const card = checkCard(form, now);
  if (card.kind === "ERROR") return card;

  return db.transaction(async (tx): Promise<PayResult> => {
    const checkout = await findSandboxCheckout(tx, checkoutId, true);
    if (!checkout) return checkoutNotFound();
    if (checkout.status === "complete") return success({ outcome: "ALREADY_PAID", redirectTo: successUrlFor(checkout) });
    if ((await expireLockedCheckout(tx, checkout, now)).status === "expired") return checkoutExpired();
    const split = checkout.purpose === "deal" ? holdCharge(checkout.amount) : splitCharge(checkout.amount, checkout.applicationFeeAmount);
    const paymentIntentId = sandboxId("pi");
    await tx.insert(sandboxPayments).values({
      id: paymentIntentId,
      chargeId: sandboxId("ch"),
      checkoutId: checkout.id,
      accountId: checkout.accountId,
      amount: split.gross,
      fee: split.fee,
      applicationFee: split.applicationFee,
      net: split.net,
      currency: checkout.currency,
      email,
      cardBrand: card.brand,
      cardLast4: card.last4,
      created: now,
    });
    await tx.update(sandboxCheckouts).set({ status: "complete", paymentIntentId, customerEmail: email }).where(eq(sandboxCheckouts.id, checkout.id));
    await recordSandboxEvent(
      tx,
      {
        type: "checkout.completed",
        checkoutId: checkout.id,
        sessionId: checkout.sessionId,
        purpose: checkout.purpose,
        paymentIntentId,
        paymentStatus: "paid",
        customerEmail: email,
        amount: checkout.amount,
        currency: checkout.currency,
      },
      now,
    );
    return success({ outcome: "PAID", paymentIntentId, redirectTo: successUrlFor(checkout) });
  });
}
