import crypto from "node:crypto";
import { and, inArray, isNotNull } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { sponsorSessions, type memberships } from "#server/platform/db/schema";
import type { PaymentDetails, PaymentProvider, ProviderMembershipInvoice, ProviderMembershipState } from "#server/providers/payments/port";
import { platformFeeFor } from "#server/domains/payments/ledger/fees";
import { recordPayment, refreshSessionStatus } from "#server/domains/payments/ledger/ledger";
import { recordMoneyFact } from "#server/domains/payments/ledger/record-money-fact";
import type { WebhookDeps } from "#server/domains/payments/notices/notice-deps";

/**
 * A membership's paid periods (ADR 0084): each paid invoice is one sponsor session of kind
 * "membership" with its own payment intent, and its ledger "payment" row with the provider's real
 * fee, written by the ledger's own writer (recordPayment) as a tip's is. The session's unique
 * payment intent and the ledger's unique (kind, reference) make each period one row, however many
 * events report it. Refunds, disputes, earnings, the CSV and reconciliation then find it as they
 * find a tip.
 */

/** The payments' details by payment intent, read from the provider before the transaction. */
export type PaidDetails = ReadonlyMap<string, PaymentDetails>;

type Membership = typeof memberships.$inferSelect;

/** The invoices that are paid periods: paid, with a payment, for some money. */
export function paidInvoices(state: Pick<ProviderMembershipState, "invoices">): (ProviderMembershipInvoice & { paymentIntentId: string })[] {
  return state.invoices.filter((i): i is ProviderMembershipInvoice & { paymentIntentId: string } => i.status === "paid" && i.paymentIntentId !== null && i.amount > 0);
}

/** The paid invoices' payment intents that have no session yet (read before the transaction: what to ask the provider about). */
export async function unrecordedPayments(db: Db, state: Pick<ProviderMembershipState, "invoices">): Promise<string[]> {
  const intents = paidInvoices(state).map((i) => i.paymentIntentId);
  if (intents.length === 0) return [];
  const known = await db
    .select({ paymentIntentId: sponsorSessions.paymentIntentId })
    .from(sponsorSessions)
    .where(and(isNotNull(sponsorSessions.paymentIntentId), inArray(sponsorSessions.paymentIntentId, intents)));
  const recorded = new Set(known.map((k) => k.paymentIntentId));
  return intents.filter((pi) => !recorded.has(pi));
}

/** Before the transaction: the real fee of each paid period not recorded yet (no network call holds a row lock). */
export async function readUnrecordedPayments(db: Db, state: ProviderMembershipState, provider: Pick<PaymentProvider, "paymentDetails">): Promise<Map<string, PaymentDetails>> {
  const details = new Map<string, PaymentDetails>();
  for (const paymentIntentId of await unrecordedPayments(db, state)) details.set(paymentIntentId, await provider.paymentDetails(paymentIntentId));
  return details;
}

export type PaidPeriod = { invoice: ProviderMembershipInvoice & { paymentIntentId: string }; sessionId: string; recordedNow: boolean };

/**
 * Writes the session and ledger row of each paid invoice not recorded yet, in the caller's
 * transaction (which holds the membership's row lock). Each new one is a payment.settled fact
 * too (the payment.succeeded webhook; the creator is told by the membership's own fact). A paid
 * invoice whose details were not read is left out (`missing`): the caller retries.
 */
export async function recordPaidPeriods(
  tx: Db,
  membership: Membership,
  state: ProviderMembershipState,
  paid: PaidDetails,
  deps: WebhookDeps,
  now: Date,
): Promise<{ periods: PaidPeriod[]; missing: string[] }> {
  const invoices = paidInvoices(state);
  if (invoices.length === 0) return { periods: [], missing: [] };
  const existing = await tx
    .select({ id: sponsorSessions.id, paymentIntentId: sponsorSessions.paymentIntentId, membershipId: sponsorSessions.membershipId })
    .from(sponsorSessions)
    .where(inArray(sponsorSessions.paymentIntentId, invoices.map((i) => i.paymentIntentId)));
  const byIntent = new Map(existing.map((s) => [s.paymentIntentId!, s]));
  const periods: PaidPeriod[] = [];
  const missing: string[] = [];
  for (const invoice of invoices) {
    const known = byIntent.get(invoice.paymentIntentId);
    if (known) {
      if (known.membershipId === membership.id) periods.push({ invoice, sessionId: known.id, recordedNow: false });
      else deps.logger?.warn({ membershipId: membership.id, paymentIntentId: invoice.paymentIntentId }, "a membership invoice's payment is another session's; left alone");
      continue;
    }
    const details = paid.get(invoice.paymentIntentId);
    if (!details) {
      missing.push(invoice.paymentIntentId);
      continue;
    }
    const sessionId = await insertPeriod(tx, membership, invoice, details, deps, now);
    if (!sessionId) {
      // Written by a transaction that committed after this one read: it is recorded.
      missing.push(invoice.paymentIntentId);
      continue;
    }
    periods.push({ invoice, sessionId, recordedNow: true });
  }
  return { periods, missing };
}

async function insertPeriod(tx: Db, membership: Membership, invoice: ProviderMembershipInvoice & { paymentIntentId: string }, details: PaymentDetails, deps: WebhookDeps, now: Date): Promise<string | null> {
  const sessionId = `ss_${crypto.randomBytes(12).toString("hex")}`;
  const platformFee = platformFeeFor(details.gross, deps.platformFeePercent);
  const [row] = await tx
    .insert(sponsorSessions)
    .values({
      id: sessionId,
      kind: "membership",
      provider: membership.provider,
      posterUid: membership.creatorUid,
      sponsorUid: membership.memberUid,
      bioPageId: membership.bioPageId,
      membershipId: membership.id,
      destinationAccountId: membership.destinationAccountId,
      amount: details.gross,
      currency: details.currency,
      platformFee,
      sponsorEmail: membership.memberEmail,
      message: "",
      supporterName: membership.memberName,
      private: membership.private,
      paymentIntentId: invoice.paymentIntentId,
      // The period's place among a creator's payments is when it was paid.
      created: invoice.paidAt ?? now,
      updatedAt: now,
    })
    .onConflictDoNothing({ target: sponsorSessions.paymentIntentId })
    .returning({ id: sponsorSessions.id });
  if (!row) return null;
  const written = await recordPayment(tx, {
    sessionId,
    paymentIntentId: invoice.paymentIntentId,
    gross: details.gross,
    providerFee: details.providerFee,
    platformFee,
    currency: details.currency,
  });
  await refreshSessionStatus(tx, sessionId, "pending");
  if (written.outcome === "RECORDED") {
    await recordMoneyFact(tx, { type: "payment.settled", sessionId, paymentIntentId: invoice.paymentIntentId, gross: details.gross, currency: details.currency }, deps, { now });
  }
  return sessionId;
}
