import type Stripe from "stripe";
import { integer, limitOf, ok, route, type Handler, type Route } from "#tests/support/stripe-emulator/handler";
import { str, strings } from "#tests/support/stripe-emulator/form";
import type { EmulatorStore } from "#tests/support/stripe-emulator/store";
import { fromFixture, nowSeconds } from "#tests/support/stripe-emulator/fixtures";

/**
 * `GET /v1/balance_transactions`: the platform's balance as Stripe lists it
 * (newest first, `created[gte|lt]`, `limit`, `starting_after`, `expand[]=data.source`).
 * The charge and refund rows are the ones the emulator stored as it settled
 * them; what it does not store is derived here with stable ids, as Stripe
 * writes it for a destination charge with `application_fee_amount`:
 * `application_fee` (+fee, source fee_…), on a refund with reverse_transfer an
 * `application_fee_refund` (−the fee's share, source fr_…). A dispute's
 * withdrawal and reinstatement are stored by ./disputes.ts as they happen, a
 * transfer's by ./transfers-api.ts.
 *
 * `GET /v1/balance`: the sum of those transactions' net, per currency, pending
 * until each one's `available_on` (two days after a charge, as Stripe's standard
 * US schedule; `makeFundsAvailable` lets the time pass), available from then.
 * The emulator writes no transfer for a destination charge (its listing never
 * had one), so a tip's gross stays in this balance: it is exact for the money
 * the platform holds and moves itself (separate charges and transfers).
 */

type Derived = { transaction: Stripe.BalanceTransaction; source: Record<string, unknown> };

/** A derived row becomes available with the stored transaction it comes from (the charge's, the refund's). */
function availableOn(store: EmulatorStore, transactionId: unknown, created: number): number {
  return store.balanceTransactions.get(String(transactionId))?.available_on ?? created + 2 * 86_400;
}

function derivedTransactions(store: EmulatorStore): Derived[] {
  const rows: Derived[] = [];
  const make = (id: string, type: string, category: string, amount: number, fee: number, currency: string, created: number, source: Record<string, unknown>, availableAt: number): Derived => ({
    transaction: {
      id,
      object: "balance_transaction",
      amount,
      available_on: availableAt,
      created,
      currency,
      description: null,
      exchange_rate: null,
      fee,
      fee_details: fee ? [{ amount: fee, application: null, currency, description: "Stripe fees", type: "stripe_fee" }] : [],
      net: amount - fee,
      reporting_category: category,
      source: source.id as string,
      status: availableAt <= nowSeconds() ? "available" : "pending",
      type: type as Stripe.BalanceTransaction.Type,
    } as Stripe.BalanceTransaction,
    source,
  });
  for (const charge of store.charges.values()) {
    if (!charge.paid || !charge.application_fee || !charge.application_fee_amount) continue;
    const feeId = typeof charge.application_fee === "string" ? charge.application_fee : charge.application_fee.id;
    const fee = { id: feeId, object: "application_fee", amount: charge.application_fee_amount, charge: charge.id, originating_transaction: charge.id, currency: charge.currency, created: charge.created };
    rows.push(make(`txn_${feeId}`, "application_fee", "platform_earning", charge.application_fee_amount, 0, charge.currency, charge.created, fee, availableOn(store, charge.balance_transaction, charge.created)));
    for (const refund of store.refunds.values()) {
      if (refund.charge !== charge.id || !refund.transfer_reversal || refund.status !== "succeeded") continue;
      const share = Math.round((charge.application_fee_amount * refund.amount) / charge.amount);
      const feeRefund = { id: `fr_${refund.id}`, object: "fee_refund", amount: share, fee: feeId, currency: refund.currency, created: refund.created };
      rows.push(make(`txn_fr_${refund.id}`, "application_fee_refund", "platform_earning_refund", -share, 0, refund.currency, refund.created, feeRefund, availableOn(store, refund.balance_transaction, refund.created)));
    }
  }
  // Disputes write their own withdrawal and reinstatement transactions when they happen (./disputes.ts).
  return rows;
}

/** Every balance transaction of the platform: the ones stored as they happened and the derived ones. */
function allTransactions(store: EmulatorStore): Derived[] {
  const stored: Derived[] = [...store.balanceTransactions.values()]
    .filter((t) => typeof t.source === "string" && t.source !== "")
    .map((t) => ({ transaction: t, source: store.find(t.source as string) as unknown as Record<string, unknown> }));
  return [...stored, ...derivedTransactions(store)];
}

/** The platform's balance in one currency now: what is available (to transfer or pay out) and what is still pending. */
export function platformBalance(store: EmulatorStore, currency: string, now = nowSeconds()): { available: number; pending: number } {
  const balance = { available: 0, pending: 0 };
  for (const { transaction: t } of allTransactions(store)) {
    if (t.currency !== currency) continue;
    if (t.available_on <= now) balance.available += t.net;
    else balance.pending += t.net;
  }
  return balance;
}

const retrieveBalance: Handler = ({ store }) => {
  const currencies = [...new Set(allTransactions(store).map(({ transaction }) => transaction.currency))];
  const each = (currency: string) => ({ currency, ...platformBalance(store, currency) });
  const rows = (currencies.length ? currencies : ["usd"]).map(each);
  return ok(
    fromFixture<Stripe.Balance>("balance", {
      available: rows.map((row) => ({ amount: row.available, currency: row.currency, source_types: { card: row.available } })),
      pending: rows.map((row) => ({ amount: row.pending, currency: row.currency, source_types: { card: row.pending } })),
      connect_reserved: rows.map((row) => ({ amount: 0, currency: row.currency })),
    }),
  );
};

const listBalanceTransactions: Handler = ({ store }, { params }) => {
  const gte = integer(params, "created[gte]", "created", "gte");
  const lt = integer(params, "created[lt]", "created", "lt");
  const expandSource = strings(params, "expand").includes("data.source");
  const all = allTransactions(store)
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

export const BALANCE_TRANSACTION_ROUTES: Route[] = [route("GET", "/v1/balance_transactions", listBalanceTransactions), route("GET", "/v1/balance", retrieveBalance)];
