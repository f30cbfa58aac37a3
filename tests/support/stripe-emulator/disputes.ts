import type Stripe from "stripe";
import { newEvent, type EmulatorEvent } from "#tests/support/stripe-emulator/events";
import { newBalanceTransaction, newDispute } from "#tests/support/stripe-emulator/objects";
import type { EmulatorStore } from "#tests/support/stripe-emulator/store";

/** Stripe's dispute fee in the US: charged when the money is withdrawn, kept when the dispute is won. */
export const DISPUTE_FEE = 1_500;

/**
 * A chargeback as Stripe runs it: the money and the fee leave the platform's
 * balance at once (`charge.dispute.created`, then `.funds_withdrawn`, both
 * carrying the withdrawal balance transaction), the platform may submit
 * evidence (`.updated`, under_review), and the bank decides (`.closed` won
 * after `.funds_reinstated`, or lost). Every event carries the whole dispute as it is now.
 */
export function openDispute(store: EmulatorStore, paymentIntentId: string, reason: string): EmulatorEvent[] {
  const intent = store.paymentIntents.get(paymentIntentId);
  const charge = intent && store.charges.get(String(intent.latest_charge));
  if (!charge || !charge.paid) throw new Error(`Payment ${paymentIntentId} has no paid charge to dispute`);
  const dispute = newDispute(charge, reason);
  const withdrawal = newBalanceTransaction({
    amount: -dispute.amount,
    fee: DISPUTE_FEE,
    currency: dispute.currency,
    source: dispute.id,
    type: "adjustment",
    reportingCategory: "dispute",
    description: `Chargeback withdrawal for ${charge.id}`,
  });
  withdrawal.fee_details = [{ amount: DISPUTE_FEE, application: null, currency: dispute.currency, description: "Dispute fee", type: "stripe_fee" }];
  store.balanceTransactions.set(withdrawal.id, withdrawal);
  dispute.balance_transactions = [withdrawal];
  store.disputes.set(dispute.id, dispute);
  charge.disputed = true;
  return [newEvent("charge.dispute.created", dispute), newEvent("charge.dispute.funds_withdrawn", dispute)];
}

function openOne(store: EmulatorStore, disputeId: string): Stripe.Dispute {
  const dispute = store.disputes.get(disputeId);
  if (!dispute) throw new Error(`No such dispute: ${disputeId}`);
  if (dispute.status === "won" || dispute.status === "lost") throw new Error(`Dispute ${disputeId} is closed (${dispute.status})`);
  return dispute;
}

/** The platform submitted evidence: under review until the bank decides. */
export function submitDisputeEvidence(store: EmulatorStore, disputeId: string): EmulatorEvent[] {
  const dispute = openOne(store, disputeId);
  dispute.status = "under_review";
  dispute.evidence_details = { ...dispute.evidence_details, has_evidence: true, submission_count: dispute.evidence_details.submission_count + 1 };
  return [newEvent("charge.dispute.updated", dispute)];
}

/** The bank decided: won brings the amount back (not the fee), lost keeps it with the cardholder. */
export function closeDispute(store: EmulatorStore, disputeId: string, outcome: "won" | "lost"): EmulatorEvent[] {
  const dispute = openOne(store, disputeId);
  dispute.status = outcome;
  dispute.is_charge_refundable = false;
  if (outcome === "lost") return [newEvent("charge.dispute.closed", dispute)];
  const reinstatement = newBalanceTransaction({
    amount: dispute.amount,
    fee: 0,
    currency: dispute.currency,
    source: dispute.id,
    type: "adjustment",
    reportingCategory: "dispute_reversal",
    description: `Chargeback reversal for ${String(dispute.charge)}`,
  });
  store.balanceTransactions.set(reinstatement.id, reinstatement);
  dispute.balance_transactions = [...dispute.balance_transactions, reinstatement];
  const charge = store.charges.get(String(dispute.charge));
  if (charge) charge.disputed = false;
  // Stripe reinstates a moment before it closes; both carry the dispute with both transactions.
  return [newEvent("charge.dispute.funds_reinstated", dispute), newEvent("charge.dispute.closed", dispute)];
}
