import { and, eq, lte } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { sandboxAccounts, sandboxCheckouts } from "#server/providers/payments/sandbox/schema";
import type { CheckoutCreated, HeldCheckoutInput, SponsorCheckoutInput } from "#server/providers/payments/port";
import { missing, SandboxRequestError } from "./errors";
import { MINIMUM_CHARGE } from "./fees";
import { sandboxId } from "./ids";
import { type DbOrTx, recordSandboxEvent } from "./outbox";

export type SandboxCheckout = typeof sandboxCheckouts.$inferSelect;

/** As Stripe's default: a checkout can be paid for 24 hours. */
export const CHECKOUT_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** Stripe's largest USD charge, $999,999.99. */
export const MAXIMUM_CHARGE = 99_999_999;

export function checkoutUrl(origin: string, checkoutId: string): string {
  return `${origin}/sandbox/checkout/${checkoutId}`;
}

function checkUrl(name: string, value: string): void {
  let url: URL | null = null;
  try {
    url = new URL(value);
  } catch {
    // handled below
  }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || value.length > 2048) {
    throw new SandboxRequestError("url_invalid", `${name} must be an absolute http(s) URL`);
  }
}

/** What every checkout must have right, whoever is paid (a membership's checkout too). */
export function checkCommon(input: Pick<SponsorCheckoutInput, "amount" | "currency" | "productName" | "successUrl" | "cancelUrl">): void {
  const { amount, currency } = input;
  if (!Number.isSafeInteger(amount) || amount > MAXIMUM_CHARGE) throw new SandboxRequestError("parameter_invalid", "amount must be a whole number of minor units up to 99999999");
  if (amount < MINIMUM_CHARGE) throw new SandboxRequestError("amount_too_small", "Amount must be at least 50 cents (usd)");
  if (currency !== "usd") throw new SandboxRequestError("parameter_invalid", "The sandbox takes usd only, as a US platform's test account does");
  if (!input.productName.trim() || input.productName.length > 250) throw new SandboxRequestError("parameter_invalid", "product name must be 1 to 250 characters");
  checkUrl("success_url", input.successUrl);
  checkUrl("cancel_url", input.cancelUrl);
}

function checkInput(input: SponsorCheckoutInput): void {
  checkCommon(input);
  const { amount, applicationFeeAmount } = input;
  if (!Number.isSafeInteger(applicationFeeAmount) || applicationFeeAmount < 0 || applicationFeeAmount > amount) {
    throw new SandboxRequestError("parameter_invalid", "application_fee_amount must be between 0 and the amount");
  }
}

/** Stripe's metadata values and transfer groups are at most 500 characters; ours are row ids. */
export function checkReference(name: string, value: string): void {
  if (!value.trim() || value.length > 500) throw new SandboxRequestError("parameter_invalid", `${name} must be 1 to 500 characters`);
}

/** The row a checkout's idempotency key made first (a concurrent first request may not have finished). */
async function checkoutOfKey(db: Db, created: SandboxCheckout | undefined, idempotencyKey: string): Promise<SandboxCheckout> {
  const checkout = created ?? (await db.select().from(sandboxCheckouts).where(eq(sandboxCheckouts.idempotencyKey, idempotencyKey)))[0];
  if (!checkout) throw new SandboxRequestError("idempotency_key_in_use", "The idempotency key's first request has not finished; try again");
  return checkout;
}

/**
 * A hosted checkout for a destination charge to an account that can take
 * charges (Stripe refuses a destination without the capability). The same
 * idempotency key returns the same checkout.
 */
export async function createSandboxCheckout(db: Db, origin: string, input: SponsorCheckoutInput, now = new Date()): Promise<CheckoutCreated> {
  checkInput(input);
  const [account] = await db.select().from(sandboxAccounts).where(eq(sandboxAccounts.id, input.destinationAccountId));
  if (!account) throw missing("account", input.destinationAccountId);
  if (!account.chargesEnabled) throw new SandboxRequestError("account_not_ready", "The destination account has not finished onboarding and cannot take charges yet");
  const [created] = await db
    .insert(sandboxCheckouts)
    .values({
      id: sandboxId("cs"),
      idempotencyKey: input.idempotencyKey,
      accountId: account.id,
      sessionId: input.sessionId,
      productName: input.productName.trim(),
      description: input.description?.trim() || null,
      amount: input.amount,
      currency: input.currency,
      applicationFeeAmount: input.applicationFeeAmount,
      customerEmail: input.sponsorEmail,
      successUrl: input.successUrl,
      cancelUrl: input.cancelUrl,
      expiresAt: new Date(now.getTime() + CHECKOUT_LIFETIME_MS),
      created: now,
    })
    .onConflictDoNothing({ target: sandboxCheckouts.idempotencyKey })
    .returning();
  const checkout = await checkoutOfKey(db, created, input.idempotencyKey);
  if (checkout.purpose !== "sponsor" || checkout.sessionId !== input.sessionId || checkout.amount !== input.amount || checkout.accountId !== account.id) {
    throw new SandboxRequestError("idempotency_key_in_use", "This idempotency key was used with other parameters");
  }
  return { checkoutId: checkout.id, url: checkoutUrl(origin, checkout.id), expiresAt: checkout.expiresAt };
}

/**
 * A hosted checkout whose charge the platform holds (a deal's): no destination account, so no
 * account's readiness is asked here or when it is paid; whoever the money goes to is checked when
 * it is transferred (./transfers.ts). The same idempotency key returns the same checkout.
 */
export async function createSandboxHeldCheckout(db: Db, origin: string, input: HeldCheckoutInput, now = new Date()): Promise<CheckoutCreated> {
  checkCommon(input);
  checkReference("funding id", input.fundingId);
  checkReference("deal id", input.dealId);
  checkReference("transfer_group", input.transferGroup);
  const [created] = await db
    .insert(sandboxCheckouts)
    .values({
      id: sandboxId("cs"),
      idempotencyKey: input.idempotencyKey,
      accountId: null,
      sessionId: input.fundingId,
      purpose: "deal",
      dealId: input.dealId,
      transferGroup: input.transferGroup,
      productName: input.productName.trim(),
      amount: input.amount,
      currency: input.currency,
      applicationFeeAmount: 0,
      customerEmail: input.sponsorEmail,
      successUrl: input.successUrl,
      cancelUrl: input.cancelUrl,
      expiresAt: new Date(now.getTime() + CHECKOUT_LIFETIME_MS),
      created: now,
    })
    .onConflictDoNothing({ target: sandboxCheckouts.idempotencyKey })
    .returning();
  const checkout = await checkoutOfKey(db, created, input.idempotencyKey);
  if (checkout.purpose !== "deal" || checkout.sessionId !== input.fundingId || checkout.amount !== input.amount || checkout.transferGroup !== input.transferGroup) {
    throw new SandboxRequestError("idempotency_key_in_use", "This idempotency key was used with other parameters");
  }
  return { checkoutId: checkout.id, url: checkoutUrl(origin, checkout.id), expiresAt: checkout.expiresAt };
}

export async function findSandboxCheckout(db: DbOrTx, checkoutId: string, lock = false): Promise<SandboxCheckout | null> {
  const query = db.select().from(sandboxCheckouts).where(eq(sandboxCheckouts.id, checkoutId));
  const [row] = lock ? await query.for("update") : await query;
  return row ?? null;
}

/** Inside the caller's transaction, with the checkout row locked: marks it expired and stores `checkout.expired`, once. */
export async function expireLockedCheckout(tx: DbOrTx, checkout: SandboxCheckout, now: Date): Promise<SandboxCheckout> {
  if (checkout.status !== "open" || checkout.expiresAt > now) return checkout;
  const [expired] = await tx.update(sandboxCheckouts).set({ status: "expired" }).where(eq(sandboxCheckouts.id, checkout.id)).returning();
  await recordSandboxEvent(
    tx,
    {
      type: "checkout.expired",
      checkoutId: checkout.id,
      sessionId: checkout.sessionId,
      purpose: checkout.purpose,
      paymentIntentId: null,
      customerEmail: null,
      paymentStatus: "unpaid",
      amount: checkout.amount,
      currency: checkout.currency,
    },
    now,
  );
  return expired!;
}

/** Expires one checkout if its time is up; the current row either way (null when there is none). */
export async function expireCheckoutIfDue(db: Db, checkoutId: string, now = new Date()): Promise<SandboxCheckout | null> {
  return db.transaction(async (tx) => {
    const checkout = await findSandboxCheckout(tx, checkoutId, true);
    return checkout ? expireLockedCheckout(tx, checkout, now) : null;
  });
}

/** Stripe sends checkout.session.expired when the time is up, whether or not anyone looks: so does the sweep. */
export async function expireDueCheckouts(db: Db, now = new Date(), limit = 100): Promise<number> {
  const due = await db
    .select({ id: sandboxCheckouts.id })
    .from(sandboxCheckouts)
    .where(and(eq(sandboxCheckouts.status, "open"), lte(sandboxCheckouts.expiresAt, now)))
    .limit(limit);
  let expired = 0;
  for (const { id } of due) {
    const row = await expireCheckoutIfDue(db, id, now);
    if (row?.status === "expired") expired += 1;
  }
  return expired;
}

/** The success URL with `{CHECKOUT_SESSION_ID}` replaced, as Stripe does. */
export function successUrlFor(checkout: Pick<SandboxCheckout, "id" | "successUrl">): string {
  return checkout.successUrl.replaceAll("{CHECKOUT_SESSION_ID}", checkout.id).replaceAll("%7BCHECKOUT_SESSION_ID%7D", checkout.id);
}
