import { and, desc, eq, inArray } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { sandboxCustomers, sandboxOneTimePurchases, sandboxPrices, sandboxProCheckouts, sandboxSubscriptions } from "#server/providers/payments/sandbox/schema";
import type { CheckoutCreated, ProCheckoutInput, ProPriceSpec, ProviderProState } from "#server/providers/payments/port";
import { planOfLookupKey, type ProPlanKey } from "#isomorphic/pro-plans";
import { CHECKOUT_LIFETIME_MS } from "./checkouts";
import { missing, SandboxRequestError } from "./errors";
import { sandboxId } from "./ids";
import { type DbOrTx, recordSandboxEvent } from "./outbox";

/**
 * The sandbox's Pro billing, as Stripe Billing behaves: prices
 * found by lookup key, customers, hosted checkouts that start a subscription
 * or take a one-time payment, and subscriptions with a current period. Every
 * change stores a `pro.customer_changed` event in its own transaction; our
 * handler then reads the customer's state fresh (readSandboxProState).
 */
export type SandboxProCheckout = typeof sandboxProCheckouts.$inferSelect;
export type SandboxSubscription = typeof sandboxSubscriptions.$inferSelect;
type Cause = Extract<Parameters<typeof recordSandboxEvent>[1], { type: "pro.customer_changed" }>["cause"];

export function proCheckoutUrl(origin: string, checkoutId: string): string {
  return `${origin}/sandbox/pro-checkout/${checkoutId}`;
}

export function addInterval(from: Date, interval: "month" | "year"): Date {
  const next = new Date(from);
  if (interval === "month") next.setUTCMonth(next.getUTCMonth() + 1);
  else next.setUTCFullYear(next.getUTCFullYear() + 1);
  return next;
}

export async function recordCustomerChanged(tx: DbOrTx, customerId: string, cause: Cause, now: Date): Promise<void> {
  await recordSandboxEvent(tx, { type: "pro.customer_changed", customerId, cause }, now);
}

/** Each plan's price by lookup key; only a missing one is created (the unique lookup key makes a race create one). */
export async function ensureSandboxPrices(db: Db, plans: readonly ProPriceSpec[]): Promise<Record<ProPlanKey, string>> {
  for (const plan of plans) {
    await db
      .insert(sandboxPrices)
      .values({ id: sandboxId("price"), lookupKey: plan.lookupKey, productName: plan.productName, amount: plan.amount, currency: plan.currency, interval: plan.interval })
      .onConflictDoNothing({ target: sandboxPrices.lookupKey });
  }
  const rows = await db.select().from(sandboxPrices).where(inArray(sandboxPrices.lookupKey, plans.map((plan) => plan.lookupKey)));
  const ids = {} as Record<ProPlanKey, string>;
  for (const plan of plans) {
    const row = rows.find((r) => r.lookupKey === plan.lookupKey);
    if (!row) throw new SandboxRequestError("resource_missing", `No price with lookup key '${plan.lookupKey}'`);
    ids[plan.plan] = row.id;
  }
  return ids;
}

export async function createSandboxCustomer(db: Db, input: { idempotencyKey: string; uid: string; email: string }): Promise<{ customerId: string }> {
  const [created] = await db
    .insert(sandboxCustomers)
    .values({ id: sandboxId("cus"), idempotencyKey: input.idempotencyKey, uid: input.uid, email: input.email })
    .onConflictDoNothing({ target: sandboxCustomers.idempotencyKey })
    .returning();
  const customer = created ?? (await db.select().from(sandboxCustomers).where(eq(sandboxCustomers.idempotencyKey, input.idempotencyKey)))[0];
  if (!customer) throw new SandboxRequestError("idempotency_key_in_use", "The idempotency key's first request has not finished; try again");
  if (customer.uid !== input.uid) throw new SandboxRequestError("idempotency_key_in_use", "This idempotency key was used with other parameters");
  return { customerId: customer.id };
}

export async function findSandboxCustomer(db: DbOrTx, customerId: string) {
  const [row] = await db.select().from(sandboxCustomers).where(eq(sandboxCustomers.id, customerId));
  return row ?? null;
}

function checkUrl(name: string, value: string): void {
  let ok: boolean;
  try {
    const url = new URL(value);
    ok = (url.protocol === "http:" || url.protocol === "https:") && value.length <= 2048;
  } catch {
    ok = false;
  }
  if (!ok) throw new SandboxRequestError("url_invalid", `${name} must be an absolute http(s) URL`);
}

/** A hosted Pro checkout; the same idempotency key returns the same checkout. Stripe refuses a mode that does not fit the price: so does this. */
export async function createSandboxProCheckout(db: Db, origin: string, input: ProCheckoutInput, now: Date): Promise<CheckoutCreated> {
  checkUrl("success_url", input.successUrl);
  checkUrl("cancel_url", input.cancelUrl);
  const [price] = await db.select().from(sandboxPrices).where(eq(sandboxPrices.id, input.priceId));
  if (!price) throw missing("price", input.priceId);
  if ((price.interval === null) !== (input.mode === "payment")) {
    throw new SandboxRequestError("parameter_invalid", input.mode === "payment" ? "A recurring price needs mode=subscription" : "A one-time price needs mode=payment");
  }
  if (!(await findSandboxCustomer(db, input.customerId))) throw missing("customer", input.customerId);
  const [created] = await db
    .insert(sandboxProCheckouts)
    .values({
      id: sandboxId("cs"),
      idempotencyKey: input.idempotencyKey,
      customerId: input.customerId,
      priceId: price.id,
      mode: input.mode,
      uid: input.uid,
      successUrl: input.successUrl,
      cancelUrl: input.cancelUrl,
      expiresAt: new Date(now.getTime() + CHECKOUT_LIFETIME_MS),
      created: now,
    })
    .onConflictDoNothing({ target: sandboxProCheckouts.idempotencyKey })
    .returning();
  const checkout = created ?? (await db.select().from(sandboxProCheckouts).where(eq(sandboxProCheckouts.idempotencyKey, input.idempotencyKey)))[0];
  if (!checkout) throw new SandboxRequestError("idempotency_key_in_use", "The idempotency key's first request has not finished; try again");
  if (checkout.customerId !== input.customerId || checkout.priceId !== price.id) {
    throw new SandboxRequestError("idempotency_key_in_use", "This idempotency key was used with other parameters");
  }
  return { checkoutId: checkout.id, url: proCheckoutUrl(origin, checkout.id), expiresAt: checkout.expiresAt };
}

/** The customer's subscriptions (newest first) and paid one-time purchases, with their prices' lookup keys: Stripe's truth for sync.ts. */
export async function readSandboxProState(db: DbOrTx, customerId: string): Promise<ProviderProState> {
  if (!(await findSandboxCustomer(db, customerId))) throw missing("customer", customerId);
  const subscriptions = await db
    .select({ sub: sandboxSubscriptions, lookupKey: sandboxPrices.lookupKey })
    .from(sandboxSubscriptions)
    .innerJoin(sandboxPrices, eq(sandboxPrices.id, sandboxSubscriptions.priceId))
    .where(eq(sandboxSubscriptions.customerId, customerId))
    .orderBy(desc(sandboxSubscriptions.created));
  const purchases = await db
    .select({ purchase: sandboxOneTimePurchases, lookupKey: sandboxPrices.lookupKey })
    .from(sandboxOneTimePurchases)
    .innerJoin(sandboxPrices, eq(sandboxPrices.id, sandboxOneTimePurchases.priceId))
    .where(eq(sandboxOneTimePurchases.customerId, customerId));
  const lifetime = purchases.find((p) => planOfLookupKey(p.lookupKey) === "limitless");
  return {
    customerId,
    subscriptions: subscriptions.map(({ sub, lookupKey }) => ({
      subscriptionId: sub.id,
      plan: planOfLookupKey(lookupKey),
      status: sub.status as "active" | "past_due" | "canceled",
      currentPeriodEnd: sub.currentPeriodEnd,
      cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
      created: sub.created,
    })),
    lifetimePurchase: lifetime ? { paymentIntentId: lifetime.purchase.id, paidAt: lifetime.purchase.paidAt } : null,
  };
}

/** The customer's subscription that still runs (active or past due), if any: the one the portal manages. */
export async function runningSubscription(db: DbOrTx, customerId: string, lock = false): Promise<SandboxSubscription | null> {
  const query = db
    .select()
    .from(sandboxSubscriptions)
    .where(and(eq(sandboxSubscriptions.customerId, customerId), inArray(sandboxSubscriptions.status, ["active", "past_due"])))
    .orderBy(desc(sandboxSubscriptions.created))
    .limit(1);
  const [row] = lock ? await query.for("update") : await query;
  return row ?? null;
}

/**
 * Whether the customer already holds what a new Pro payment would duplicate
 *: a running subscription, or Limitless. A subscription checkout
 * is refused while either holds; a Limitless one only once Limitless is paid
 * (a subscriber may buy it: server/domains/pro/one-subscription.ts then
 * ends the subscription at its period's end). The caller holds the
 * customer's row lock, so two checkouts paid at once take turns here.
 */
export async function proPaymentConflict(tx: DbOrTx, customerId: string, mode: "subscription" | "payment"): Promise<"SUBSCRIBED" | "LIMITLESS" | null> {
  const state = await readSandboxProState(tx, customerId);
  if (state.lifetimePurchase) return "LIMITLESS";
  if (mode === "subscription" && state.subscriptions.some((sub) => sub.status === "active" || sub.status === "past_due")) return "SUBSCRIBED";
  return null;
}

/** ProBilling.endSubscription on the sandbox: the same change the portal's cancel makes, or an end now; ending an ended one does nothing. */
export async function endSandboxSubscription(db: Db, input: { subscriptionId: string; when: "period_end" | "now" }, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    const [sub] = await tx.select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.id, input.subscriptionId)).for("update");
    if (!sub) throw missing("subscription", input.subscriptionId);
    if (sub.status === "canceled") return;
    if (input.when === "period_end") {
      if (sub.cancelAtPeriodEnd) return;
      await tx.update(sandboxSubscriptions).set({ cancelAtPeriodEnd: true }).where(eq(sandboxSubscriptions.id, sub.id));
      await recordCustomerChanged(tx, sub.customerId, "subscription.updated", now);
      return;
    }
    await tx.update(sandboxSubscriptions).set({ status: "canceled", cancelAtPeriodEnd: false, currentPeriodEnd: now }).where(eq(sandboxSubscriptions.id, sub.id));
    await recordCustomerChanged(tx, sub.customerId, "subscription.deleted", now);
  });
}
