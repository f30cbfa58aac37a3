import { and, eq, gte, lt, sql } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import type { Period, ProviderBalanceTransaction } from "#server/providers/payments/port";
import {
  sandboxCheckouts,
  sandboxEvents,
  sandboxMembershipInvoices,
  sandboxMembershipSubscriptions,
  sandboxPayments,
  sandboxRefunds,
  sandboxTransfers,
} from "#server/providers/payments/sandbox/schema";

/**
 * The sandbox's balance transactions, derived from its own tables as Stripe
 * would have written them on the platform's balance for a destination charge
 * with an application fee (decision 0019):
 * - a payment (a tip's, or a membership invoice's: the same destination charge): `charge` (+gross, the processing fee), `transfer` (−gross to the
 *   creator's account), `application_fee` (+the platform's share, back from it);
 * - a refund (reverse_transfer, refund_application_fee): `refund` (−amount, no
 *   fee back), `transfer_reversal` (+amount), `application_fee_refund`;
 * - a dispute: `dispute` (−amount, the dispute fee), and when won a
 *   `dispute_reversal` (+amount, the fee is not returned).
 * And for a charge the platform holds (a deal's, separate charges and transfers):
 * - the payment: `charge` alone (+gross, the processing fee), its sessionId the funding id;
 * - each transfer from it: `transfer` (−amount, source tr_…), tied to the charge's payment intent;
 * - each refund of it: `refund` (−amount), nothing reversed.
 * Ids are derived from the source's id, so listing twice answers the same rows.
 */
export async function listSandboxBalanceTransactions(db: Db, period: Period): Promise<ProviderBalanceTransaction[]> {
  const within = (column: typeof sandboxPayments.created | typeof sandboxRefunds.created | typeof sandboxEvents.created | typeof sandboxTransfers.created) =>
    and(gte(column, period.from), lt(column, period.to));
  // A membership invoice's charge carries its membership id where a tip's carries its session id (metadata.membership_id).
  const payments = await db
    .select({ p: sandboxPayments, sessionId: sql<string | null>`coalesce(${sandboxCheckouts.sessionId}, ${sandboxMembershipSubscriptions.membershipId})` })
    .from(sandboxPayments)
    .leftJoin(sandboxCheckouts, eq(sandboxCheckouts.id, sandboxPayments.checkoutId))
    .leftJoin(sandboxMembershipInvoices, eq(sandboxMembershipInvoices.id, sandboxPayments.membershipInvoiceId))
    .leftJoin(sandboxMembershipSubscriptions, eq(sandboxMembershipSubscriptions.id, sandboxMembershipInvoices.subscriptionId))
    .where(within(sandboxPayments.created));
  const refunds = await db
    .select({ refund: sandboxRefunds, paymentIntentId: sandboxPayments.id, accountId: sandboxPayments.accountId })
    .from(sandboxRefunds)
    .innerJoin(sandboxPayments, eq(sandboxPayments.id, sandboxRefunds.paymentId))
    .where(and(within(sandboxRefunds.created), eq(sandboxRefunds.status, "succeeded")));
  const transfers = await db.select().from(sandboxTransfers).where(within(sandboxTransfers.created));
  const disputeEvents = await db
    .select({ type: sandboxEvents.type, payload: sandboxEvents.payload, created: sandboxEvents.created })
    .from(sandboxEvents)
    .where(and(within(sandboxEvents.created), eq(sandboxEvents.type, "dispute.changed")));

  const rows: ProviderBalanceTransaction[] = [];
  type Row = Omit<ProviderBalanceTransaction, "disputeId" | "sessionId"> & { disputeId?: string | null; sessionId?: string | null };
  const row = (r: Row) => rows.push({ disputeId: null, sessionId: null, ...r });
  for (const { p, sessionId } of payments) {
    const base = { currency: p.currency, created: p.created, paymentIntentId: p.id };
    row({ ...base, id: `txn_${p.chargeId}`, type: "charge", amount: p.amount, fee: p.fee, sourceId: p.chargeId, sessionId });
    // A held charge stays on the platform's balance: its transfers are rows of their own, made on release.
    if (p.accountId === null) continue;
    row({ ...base, id: `txn_tr_${p.chargeId}`, type: "transfer", amount: -p.amount, fee: 0, sourceId: `tr_${p.chargeId}` });
    if (p.applicationFee > 0) row({ ...base, id: `txn_fee_${p.chargeId}`, type: "application_fee", amount: p.applicationFee, fee: 0, sourceId: `fee_${p.chargeId}` });
  }
  for (const t of transfers) {
    row({ id: `txn_${t.id}`, type: "transfer", amount: -t.amount, fee: 0, currency: t.currency, created: t.created, sourceId: t.id, paymentIntentId: t.paymentId });
  }
  for (const { refund: r, paymentIntentId, accountId } of refunds) {
    const base = { currency: r.currency, created: r.created, paymentIntentId };
    row({ ...base, id: `txn_${r.id}`, type: "refund", amount: -r.amount, fee: 0, sourceId: r.id });
    // A held charge's refund comes from the platform's balance alone: no account gives anything back.
    if (accountId === null) continue;
    row({ ...base, id: `txn_trr_${r.id}`, type: "transfer_reversal", amount: r.amount, fee: 0, sourceId: `trr_${r.id}` });
    if (r.applicationFeeRefunded > 0) {
      row({ ...base, id: `txn_fr_${r.id}`, type: "application_fee_refund", amount: -r.applicationFeeRefunded, fee: 0, sourceId: `fr_${r.id}` });
    }
  }
  for (const event of disputeEvents) {
    const d = disputeOf(event.payload);
    if (!d) continue;
    const base = { currency: d.currency, created: event.created, paymentIntentId: d.paymentIntentId, disputeId: d.disputeId, sourceId: d.disputeId };
    // The sandbox reports a dispute when it opens (the money and the fee leave then) and when it closes.
    if (d.status === "needs_response") row({ ...base, id: `txn_${d.disputeId}`, type: "dispute", amount: -d.amount, fee: d.fee, sourceId: d.disputeId });
    else if (d.status === "won") row({ ...base, id: `txn_rev_${d.disputeId}`, type: "dispute_reversal", amount: d.amount, fee: 0 });
  }
  return rows.sort((a, b) => a.created.getTime() - b.created.getTime() || a.id.localeCompare(b.id));
}

/** The dispute fee the sandbox charges, when its event says (0 otherwise: the sandbox had none). */
function disputeOf(payload: Record<string, unknown>) {
  const { disputeId, paymentIntentId, amount, currency, fee, status } = payload;
  if (typeof disputeId !== "string" || typeof amount !== "number" || typeof currency !== "string") return null;
  return {
    disputeId,
    paymentIntentId: typeof paymentIntentId === "string" ? paymentIntentId : null,
    amount,
    currency,
    fee: typeof fee === "number" ? fee : 0,
    status: typeof status === "string" ? status : null,
  };
}
