import type Stripe from "stripe";
import type { BalanceTransactionType, Period, ProviderBalanceTransaction } from "#server/providers/payments/port";

/**
 * The platform's balance transactions of a period, normalised for
 * reconciliation. One listing call per 100 rows (auto-pagination), expanding
 * only `data.source`: the charge, refund and dispute it carries name their
 * payment intent. An application fee names its charge, and a fee refund its
 * fee, and a transfer from a held charge its source_transaction, so those are
 * tied to a payment through the charges and fees of the same listing; only one
 * whose charge lies outside the period costs a retrieve.
 */
export async function listStripeBalanceTransactions(stripe: Stripe, period: Period): Promise<ProviderBalanceTransaction[]> {
  const raw: Stripe.BalanceTransaction[] = [];
  const listing = stripe.balanceTransactions.list({
    created: { gte: seconds(period.from), lt: seconds(period.to) },
    limit: 100,
    expand: ["data.source"],
  });
  for await (const transaction of listing) raw.push(transaction);

  const intentOfCharge = new Map<string, string | null>();
  const chargeOfFee = new Map<string, string | null>();
  for (const t of raw) {
    const source = sourceObject(t);
    if (source?.object === "charge") intentOfCharge.set(source.id as string, idOf(source.payment_intent));
    if (source?.object === "application_fee") chargeOfFee.set(source.id as string, idOf(source.originating_transaction) ?? idOf(source.charge));
  }
  const intentOf = async (chargeId: string | null): Promise<string | null> => {
    if (!chargeId) return null;
    if (!intentOfCharge.has(chargeId)) intentOfCharge.set(chargeId, idOf((await stripe.charges.retrieve(chargeId)).payment_intent));
    return intentOfCharge.get(chargeId) ?? null;
  };
  const chargeOf = async (feeId: string | null): Promise<string | null> => {
    if (!feeId) return null;
    if (!chargeOfFee.has(feeId)) {
      const fee = await stripe.applicationFees.retrieve(feeId);
      chargeOfFee.set(feeId, idOf(fee.originating_transaction) ?? idOf(fee.charge));
    }
    return chargeOfFee.get(feeId) ?? null;
  };

  const rows: ProviderBalanceTransaction[] = [];
  for (const t of raw) {
    const source = sourceObject(t);
    const type = typeOf(t);
    let paymentIntentId: string | null = null;
    let disputeId: string | null = null;
    if (type === "charge" || type === "refund") paymentIntentId = idOf(source?.payment_intent);
    else if (type === "dispute" || type === "dispute_reversal") {
      disputeId = idOf(t.source);
      paymentIntentId = idOf(source?.payment_intent);
    } else if (type === "application_fee") paymentIntentId = await intentOf(chargeOfFee.get(idOf(t.source) ?? "") ?? null);
    else if (type === "application_fee_refund") paymentIntentId = await intentOf(await chargeOf(idOf(source?.fee)));
    // A transfer from a held charge (source_transaction) belongs to that charge's payment.
    else if (type === "transfer") paymentIntentId = await intentOf(idOf(source?.source_transaction));
    rows.push({
      id: t.id,
      type,
      amount: t.amount,
      fee: t.fee,
      currency: t.currency,
      created: new Date(t.created * 1000),
      sourceId: idOf(t.source) ?? "",
      paymentIntentId,
      disputeId,
      sessionId: type === "charge" ? sessionOf(source?.metadata) : null,
    });
  }
  return rows;
}

/** Our row the charge was for: a tip's sponsor_sessions id, or a held charge's deal_fundings id (a deal's). */
function sessionOf(metadata: unknown): string | null {
  const record = metadata && typeof metadata === "object" ? (metadata as Record<string, unknown>) : {};
  const value = record.session_id ?? record.funding_id;
  return typeof value === "string" ? value : null;
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

function idOf(value: unknown): string | null {
  if (typeof value === "string") return value;
  if (value && typeof value === "object" && typeof (value as { id?: unknown }).id === "string") return (value as { id: string }).id;
  return null;
}

function sourceObject(t: Stripe.BalanceTransaction): Record<string, unknown> | null {
  return t.source && typeof t.source === "object" ? (t.source as unknown as Record<string, unknown>) : null;
}

/** Stripe's type names (old and new) and, for disputes, its reporting category. */
function typeOf(t: Stripe.BalanceTransaction): BalanceTransactionType {
  switch (t.type) {
    case "charge":
    case "payment":
      return "charge";
    case "refund":
    case "payment_refund":
      return "refund";
    case "application_fee":
      return "application_fee";
    case "application_fee_refund":
      return "application_fee_refund";
    case "transfer":
      return "transfer";
    case "transfer_refund":
      return "transfer_reversal";
    case "adjustment":
      if (t.reporting_category === "dispute") return "dispute";
      if (t.reporting_category === "dispute_reversal") return "dispute_reversal";
      return "other";
    default:
      return "other";
  }
}
