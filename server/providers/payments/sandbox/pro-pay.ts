import { eq } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { sandboxCustomers, sandboxOneTimePurchases, sandboxPrices, sandboxProCheckouts, sandboxSubscriptions } from "#server/providers/payments/sandbox/schema";
import { addInterval, proPaymentConflict, recordCustomerChanged, type SandboxProCheckout } from "./billing";
import { refusal, success, type Refusal, type Success } from "#server/platform/errors";
import { type CardErrorCode, type CardField, type CardInput, checkCard } from "./cards";
import { checkoutExpired, checkoutNotFound } from "./pay";
import { successUrlFor } from "./checkouts";
import { sandboxId } from "./ids";
import type { DbOrTx } from "./outbox";

export type ProPayResult =
  | Success<{ outcome: "PAID" | "ALREADY_PAID"; redirectTo: string }>
  | Refusal<"gone", "EXPIRED">
  /** The customer already has a running subscription or Limitless: nothing was charged. */
  | Refusal<"aborted", "ALREADY_PRO", { holds: "SUBSCRIBED" | "LIMITLESS"; cancelUrl: string }>
  | Refusal<"not-found", "NOT_FOUND">
  | Refusal<"payment-required", CardErrorCode, { field: CardField }>;

const ALREADY_PRO_MESSAGES = {
  LIMITLESS: "You already have Limitless, which never expires. Nothing was charged.",
  SUBSCRIBED: "You already have a Pro subscription: one is all you need. Nothing was charged. To change plans, use the Pro Portal.",
} as const;

async function lockCheckout(tx: DbOrTx, checkoutId: string): Promise<SandboxProCheckout | null> {
  const [row] = await tx.select().from(sandboxProCheckouts).where(eq(sandboxProCheckouts.id, checkoutId)).for("update");
  return row ?? null;
}

/** What the Pro checkout page shows: the plan, its price and where "cancel" goes. */
export async function loadProCheckoutView(db: Db, checkoutId: string, now: Date) {
  const [row] = await db
    .select({ checkout: sandboxProCheckouts, price: sandboxPrices, email: sandboxCustomers.email })
    .from(sandboxProCheckouts)
    .innerJoin(sandboxPrices, eq(sandboxPrices.id, sandboxProCheckouts.priceId))
    .innerJoin(sandboxCustomers, eq(sandboxCustomers.id, sandboxProCheckouts.customerId))
    .where(eq(sandboxProCheckouts.id, checkoutId));
  if (!row) return null;
  const { checkout, price } = row;
  const expired = checkout.status === "expired" || (checkout.status === "open" && checkout.expiresAt <= now);
  return {
    status: expired ? ("expired" as const) : checkout.status,
    productName: price.productName,
    amount: price.amount,
    currency: price.currency,
    interval: price.interval as "month" | "year" | null,
    email: row.email,
    successUrl: checkout.status === "complete" ? successUrlFor(checkout) : null,
    cancelUrl: checkout.cancelUrl,
  };
}

/**
 * Pays a Pro checkout with a test card, with its row locked so that double
 * submits make one subscription or one purchase. A subscription starts its
 * first period now; the card is kept as the customer's default, and the
 * 0341 test card is remembered as one whose renewals will fail.
 */
export async function payProCheckout(db: Db, checkoutId: string, card: CardInput, now: Date): Promise<ProPayResult> {
  const checked = checkCard(card, now);
  return db.transaction(async (tx): Promise<ProPayResult> => {
    const checkout = await lockCheckout(tx, checkoutId);
    if (!checkout) return checkoutNotFound();
    if (checkout.status === "complete") return success({ outcome: "ALREADY_PAID", redirectTo: successUrlFor(checkout) });
    if (checkout.status === "expired" || checkout.expiresAt <= now) {
      await tx.update(sandboxProCheckouts).set({ status: "expired" }).where(eq(sandboxProCheckouts.id, checkout.id));
      return checkoutExpired();
    }
    if (checked.kind === "ERROR") return checked;
    // One live subscription per person, checked when paying (not only when the checkout was opened):
    // the customer's row is locked, so two of their checkouts paid at once take turns.
    await tx.select({ id: sandboxCustomers.id }).from(sandboxCustomers).where(eq(sandboxCustomers.id, checkout.customerId)).for("update");
    const conflict = await proPaymentConflict(tx, checkout.customerId, checkout.mode);
    if (conflict) return refusal("aborted", "ALREADY_PRO", ALREADY_PRO_MESSAGES[conflict], { holds: conflict, cancelUrl: checkout.cancelUrl });
    const [price] = await tx.select().from(sandboxPrices).where(eq(sandboxPrices.id, checkout.priceId));
    await tx
      .update(sandboxCustomers)
      .set({ cardBrand: checked.brand, cardLast4: checked.last4, cardFailsRenewal: checked.failsLaterCharges === true })
      .where(eq(sandboxCustomers.id, checkout.customerId));
    if (checkout.mode === "subscription") {
      const interval = price!.interval === "year" ? "year" : "month";
      await tx.insert(sandboxSubscriptions).values({
        id: sandboxId("sub"),
        customerId: checkout.customerId,
        priceId: checkout.priceId,
        checkoutId: checkout.id,
        status: "active",
        currentPeriodEnd: addInterval(now, interval),
        created: now,
      });
      await recordCustomerChanged(tx, checkout.customerId, "subscription.created", now);
      await recordCustomerChanged(tx, checkout.customerId, "invoice.paid", now);
    } else {
      await tx.insert(sandboxOneTimePurchases).values({
        id: sandboxId("pi"),
        customerId: checkout.customerId,
        priceId: checkout.priceId,
        checkoutId: checkout.id,
        amount: price!.amount,
        currency: price!.currency,
        paidAt: now,
      });
    }
    await tx.update(sandboxProCheckouts).set({ status: "complete" }).where(eq(sandboxProCheckouts.id, checkout.id));
    await recordCustomerChanged(tx, checkout.customerId, "checkout.completed", now);
    return success({ outcome: "PAID", redirectTo: successUrlFor(checkout) });
  });
}
