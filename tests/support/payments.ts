import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { pino } from "pino";
import type { Db } from "#server/platform/db/client";
import { bioPages, connectedAccounts, opportunityPosts, profiles, sponsorSessions, user } from "#server/platform/db/schema";
import { createMailer } from "#server/platform/email/mailer";
import type { PaymentEvent, PaymentEventOf } from "#server/providers/payments/events";
import type { WebhookDeps } from "#server/features/payment-webhooks/types";
import { newOpportunityId } from "#server/domains/opportunities/ids";
import type { NotificationDeps } from "#server/domains/notifications/send";
import { unsubscribeSigningKey } from "#server/domains/notifications/unsubscribe-token";
import { memberLinkKey } from "#server/domains/memberships/member-link";
import type { SandboxProvider } from "#server/providers/payments/sandbox/provider";
import { payCheckout } from "#server/providers/payments/sandbox/pay";
import type { PaymentProvider } from "#server/providers/payments/port";

const rand = () => crypto.randomBytes(5).toString("hex");

export const silentLogger = pino({ level: "silent" });

/** The secret unsubscribe links are signed with in tests. */
export const TEST_SESSION_SECRET = "test-session-secret-of-at-least-32-characters";

/** The platform's fee in tests' notification deps: what a deal's webhook event splits its price by. */
export const TEST_FEE_PERCENT = 10;

/** sendNotification's deps with the outbox mailer (mail rows land in email_outbox with the caller's transaction). */
export function notificationDeps(db: Db, mailer = createMailer({ db, from: "Sponsorgrid <no-reply@test.example>", logger: silentLogger })): NotificationDeps {
  return {
    mailer,
    site: { appName: "Sponsorgrid", supportEmail: "support@test.example", publicOrigin: "http://app.test" },
    unsubscribeKey: unsubscribeSigningKey(TEST_SESSION_SECRET),
    platformFeePercent: TEST_FEE_PERCENT,
  };
}

/** Handler dependencies with the outbox mailer (mail rows land in email_outbox with the handler's transaction). */
export function webhookDeps(db: Db, provider: PaymentProvider): WebhookDeps {
  return {
    provider,
    mailer: createMailer({ db, from: "Sponsorgrid <no-reply@test.example>", logger: silentLogger }),
    site: { appName: "Sponsorgrid", supportEmail: "support@test.example", publicOrigin: "http://app.test", bioOrigin: "http://bio.test" },
    unsubscribeKey: unsubscribeSigningKey(TEST_SESSION_SECRET),
    platformFeePercent: TEST_FEE_PERCENT,
    memberLinkKey: memberLinkKey(TEST_SESSION_SECRET),
    logger: silentLogger,
  };
}

/** A payout account at the sandbox, onboarded (able to take charges) unless said otherwise. */
export async function sandboxAccount(sandbox: SandboxProvider, uid: string, { complete = true }: { complete?: boolean } = {}): Promise<string> {
  const { accountId } = await sandbox.createConnectedAccount({ idempotencyKey: `account_${uid}`, email: `${uid}@pay.example`, accountType: "individual", uid });
  if (complete) await sandbox.completeOnboarding(accountId, { legalName: `Creator ${uid}`, country: "US", bankAccount: "000123456789" });
  return accountId;
}

export type Payee = { uid: string; accountId: string; pageId: string; ending: string };

/** A creator with a bio page and a payout account at the provider (complete unless said otherwise). */
export async function seedPayee(db: Db, provider: SandboxProvider, { complete = true }: { complete?: boolean } = {}): Promise<Payee> {
  const uid = `creator_${rand()}`;
  const pageId = `page${rand()}`;
  const ending = `page_${rand()}`;
  await db.insert(user).values({ id: uid, name: `Creator ${uid}`, email: `${uid}@pay.example`, emailVerified: true });
  await db.insert(profiles).values({ uid, paymentsEnabled: complete });
  const accountId = await sandboxAccount(provider, uid, { complete });
  await db.insert(connectedAccounts).values({ uid, stateToken: `state_${rand()}`, providerAccountId: accountId, completed: complete });
  await db.insert(bioPages).values({ id: pageId, uid, customEnding: ending, name: `Page of ${uid}` });
  return { uid, accountId, pageId, ending };
}

/** An opportunity post of the payee's, offered on their page. */
export async function seedOption(db: Db, payee: Payee, minContributionCents: number): Promise<string> {
  const id = newOpportunityId(new Date());
  await db.insert(opportunityPosts).values({ id, title: `Post ${id.slice(-6)}`, description: "d", posterUid: payee.uid, minContributionCents });
  const [page] = await db.select({ sponsorships: bioPages.sponsorships }).from(bioPages).where(eqId(payee.pageId));
  await db.update(bioPages).set({ sponsorships: [...(page?.sponsorships ?? []), { post_id: id }] }).where(eqId(payee.pageId));
  return id;
}

const eqId = (id: string) => eq(bioPages.id, id);

/** `customerEmail`: the address the payer gave the provider's checkout (where the receipt goes), once paid. */
export type SeededSession = { sessionId: string; checkoutId: string; paymentIntentId: string; amount: number; platformFee: number; customerEmail?: string | null };

/** A pending tip to `payee`, as buildSponsorSession leaves it once the provider's checkout exists. */
export async function seedSession(db: Db, payee: Payee, { amount = 2500, platformFee = 0 }: { amount?: number; platformFee?: number } = {}): Promise<SeededSession> {
  const sessionId = `ss_${rand()}`;
  const checkoutId = `cs_${rand()}`;
  await db.insert(sponsorSessions).values({
    id: sessionId,
    kind: "tip",
    provider: "sandbox",
    providerCheckoutId: checkoutId,
    posterUid: payee.uid,
    bioPageId: payee.pageId,
    destinationAccountId: payee.accountId,
    amount,
    platformFee,
    sponsorEmail: `fan_${rand()}@sponsor.example`,
    message: "Keep it up!",
  });
  return { sessionId, checkoutId, paymentIntentId: `pi_${rand()}`, amount, platformFee };
}

/** Stripe's test card that always pays, as a sponsor types it on the sandbox's checkout page. */
export const PAYING_CARD = { number: "4242 4242 4242 4242", expiry: "12/34", cvc: "123", postalCode: "94107" };

/**
 * The seeded session paid at the sandbox, as a sponsor pays it: its checkout
 * made and paid with the test card. The session then names the sandbox's
 * checkout and payment, so the handlers read the payment's details from it.
 */
export async function payAtSandbox(db: Db, sandbox: SandboxProvider, payee: Payee, s: SeededSession, { email }: { email?: string } = {}): Promise<SeededSession> {
  // As the real checkout does: the address typed on our form fills the checkout's, and a payer who
  // keeps it pays with it (`email` is one who typed another there).
  const [row] = await db.select({ sponsorEmail: sponsorSessions.sponsorEmail }).from(sponsorSessions).where(eq(sponsorSessions.id, s.sessionId));
  const customerEmail = email ?? row?.sponsorEmail ?? "fan@sponsor.example";
  const { checkoutId } = await sandbox.createSponsorCheckout({
    idempotencyKey: `checkout_${s.sessionId}`,
    sessionId: s.sessionId,
    destinationAccountId: payee.accountId,
    amount: s.amount,
    currency: "usd",
    applicationFeeAmount: s.platformFee,
    productName: `Tip for Page of ${payee.uid}`,
    sponsorEmail: row?.sponsorEmail ?? null,
    successUrl: `http://app.test/app/payments/success?session=${s.sessionId}`,
    cancelUrl: `http://app.test/app/payments/cancelled?session=${s.sessionId}`,
  });
  await db.update(sponsorSessions).set({ providerCheckoutId: checkoutId }).where(eq(sponsorSessions.id, s.sessionId));
  const paid = await payCheckout(db, checkoutId, { email: customerEmail, ...PAYING_CARD }, sandbox.now(), sandbox.whyPayeeCannotBePaid);
  if (paid.kind !== "SUCCESS" || paid.outcome !== "PAID") throw new Error(`the sandbox did not take the test payment: ${paid.kind === "SUCCESS" ? paid.outcome : paid.message}`);
  return { ...s, checkoutId, paymentIntentId: paid.paymentIntentId, customerEmail };
}

const base = () => ({ provider: "sandbox" as const, eventId: `evt_${rand()}`, occurredAt: new Date() });

/** Event builders: each call is a new event (a new id); deliver the same object twice for a redelivery. */
export const events = {
  checkout<T extends "checkout.completed" | "checkout.async_payment_succeeded" | "checkout.async_payment_failed" | "checkout.expired">(
    type: T,
    s: SeededSession,
    paymentStatus: "paid" | "unpaid" = "paid",
    purpose: "sponsor" | "deal" = "sponsor",
  ): PaymentEventOf<T> {
    return { ...base(), type, checkoutId: s.checkoutId, sessionId: s.sessionId, purpose, paymentIntentId: type === "checkout.expired" ? null : s.paymentIntentId, paymentStatus, customerEmail: s.customerEmail ?? null, amount: s.amount, currency: "usd" } as PaymentEventOf<T>;
  },
  chargeRefunded(s: SeededSession): PaymentEvent {
    return { ...base(), type: "charge.refunded", paymentIntentId: s.paymentIntentId, chargeId: `ch_${s.paymentIntentId}`, amountRefunded: s.amount, currency: "usd" };
  },
  refundUpdated(s: SeededSession, status: "pending" | "succeeded" | "failed", refundId = `re_${s.paymentIntentId}`): PaymentEvent {
    return { ...base(), type: "refund.updated", refundId, paymentIntentId: s.paymentIntentId, status, amount: s.amount, currency: "usd" };
  },
  /** The dispute as the provider reports it: opened (needs_response) unless `status` says otherwise; the fee is Stripe's 1500. */
  disputeChanged(
    s: Pick<SeededSession, "paymentIntentId" | "amount">,
    status: "needs_response" | "under_review" | "won" | "lost" = "needs_response",
    disputeId = `dp_${s.paymentIntentId}`,
    occurredAt?: Date,
  ): PaymentEvent {
    return {
      ...base(),
      ...(occurredAt ? { occurredAt } : {}),
      type: "dispute.changed",
      disputeId,
      paymentIntentId: s.paymentIntentId,
      chargeId: `ch_${s.paymentIntentId}`,
      reason: "fraudulent",
      status,
      evidenceDueBy: new Date("2026-12-03T23:59:59Z"),
      fee: 1500,
      amount: s.amount,
      currency: "usd",
    };
  },
  accountUpdated(accountId: string, chargesEnabled: boolean): PaymentEvent {
    return { ...base(), type: "account.updated", accountId, chargesEnabled, payoutsEnabled: chargesEnabled, detailsSubmitted: true };
  },
};
