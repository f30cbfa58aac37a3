import type Stripe from "stripe";
import { integer, limitOf, ok, route, type Handler, type Route } from "#tests/support/stripe-emulator/handler";
import { str, strings } from "#tests/support/stripe-emulator/form";
import type { EmulatorStore } from "#tests/support/stripe-emulator/store";

/**
 * `GET /v1/balance_transactions`: the platform's balance as Stripe lists it
 * (newest first, `created[gte|lt]`, `limit`, `starting_after`, `expand[]=data.source`).
 * The charge and refund rows are the ones the emulator stored as it settled
 * them; what it does not store is derived here with stable ids, as Stripe
 * writes it for a destination charge with `application_fee_amount`:
 * `application_fee` (+fee, source fee_…), on a refund with reverse_transfer an
 * `application_fee_refund` (−the fee's share, source fr_…). A dispute's
 * withdrawal and reinstatement are stored by ./disputes.ts as they happen.
 */

type Derived = { transaction: Stripe.BalanceTransaction; source: Record<string, unknown> };

function derivedTransactions(store: EmulatorStore): Derived[] {
  const rows: Derived[] = [];
  const make = (id: string, type: string, category: string, amount: number, fee: number, currency: string, created: number, source: Record<string, unknown>): Derived => ({
    transaction: {
      id,
      object: "balance_transaction",
      amount,
      available_on: created + 2 * 86_400,
      created,
      currency,
      description: null,
      exchange_rate: null,
      fee,
      fee_details: fee ? [{ amount: fee, application: null, currency, description: "Stripe fees", type: "stripe_fee" }] : [],
      net: amount - fee,
      reporting_category: category,
      source: source.id as string,
      status: "pending",
      type: type as Stripe.BalanceTransaction.Type,
    } as Stripe.BalanceTransaction,
    source,
  });
  for (const charge of store.charges.values()) {
    if (!charge.paid || !charge.application_fee || !charge.application_fee_amount) continue;
    const feeId = typeof charge.application_fee === "string" ? charge.application_fee : charge.application_fee.id;
    const fee = { id: feeId, object: "application_fee", amount: charge.application_fee_amount, charge: charge.id, originating_transaction: charge.id, currency: charge.currency, created: charge.created };
    rows.push(make(`txn_${feeId}`, "application_fee", "platform_earning", charge.application_fee_amount, 0, charge.currency, charge.created, fee));
    for (const refund of store.refunds.values()) {
      if (refund.charge !== charge.id || !refund.transfer_reversal || refund.status !== "succeeded") continue;
      const share = Math.round((charge.application_fee_amount * refund.amount) / charge.amount);
      const feeRefund = { id: `fr_${refund.id}`, object: "fee_refund", amount: share, fee: feeId, currency: refund.currency, created: refund.created };
      rows.push(make(`txn_fr_${refund.id}`, "application_fee_refund", "platform_earning_refund", -share, 0, refund.currency, refund.created, feeRefund));
    }
  }
  // Disputes write their own withdrawal and reinstatement transactions when they happen (./disputes.ts).
  return rows;
}

const listBalanceTransactions: Handler = ({ store }, { params }) => {
  const gte = integer(params, "created[gte]", "created", "gte");
  const lt = integer(params, "created[lt]", "created", "lt");
  const expandSource = strings(params, "expand").includes("data.source");
  const stored: Derived[] = [...store.balanceTransactions.values()]
    .filter((t) => typeof t.source === "string" && t.source !== "")
    .map((t) => ({ transaction: t, source: store.find(t.source as string) as unknown as Record<string, unknown> }));
  const all = [...stored, ...derivedTransactions(store)]
    .filter(({ transaction: t }) => (gte === undefined || t.created >= gte) && (lt === undefined || t.created < lt))
    // Newest first; ties in a second by id, so pages never overlap.
    .sort((a, b) => b.transaction.created - a.transaction.created || b.transaction.id.localeCompare(a.transaction.id));
  const after = str(params, "starting_after");
  const start = after ? all.findIndex((row) => row.transaction.id === after) + 1 : 0;
  const limit = limitOf(params);
  const page = all.slice(start, start + limit);
  const data = page.map(({ transaction, source }) => (expandSource && source ? { ...structuredClone(transaction), source: structuredClone(source) } : structuredClone(transaction)));
  return ok({ object: "list", data, has_more: start + limit < all.length, url: "/v1/balance_transactions" });
};

export const BALANCE_TRANSACTION_ROUTES: Route[] = [route("GET", "/v1/balance_transactions", listBalanceTransactions)];
