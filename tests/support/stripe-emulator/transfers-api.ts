import { platformBalance } from "#tests/support/stripe-emulator/balance-transactions-api";
import { invalidRequest, requiredParam } from "#tests/support/stripe-emulator/errors";
import { newEvent } from "#tests/support/stripe-emulator/events";
import { nowSeconds } from "#tests/support/stripe-emulator/fixtures";
import { metadataOf, str, strings } from "#tests/support/stripe-emulator/form";
import { integer, limitOf, ok, retrieve, route, type Handler, type Route } from "#tests/support/stripe-emulator/handler";
import { newBalanceTransaction, newTransfer } from "#tests/support/stripe-emulator/objects";
import type { EmulatorStore } from "#tests/support/stripe-emulator/store";

/**
 * Connect transfers, for separate charges and transfers: the platform charges
 * the payer on its own balance (a checkout without transfer_data) and later
 * moves parts of that money to connected accounts. `POST /v1/transfers` takes
 * `amount`, `currency`, `destination` and optionally `source_transaction` (the
 * charge it comes from), `transfer_group`, `description` and `metadata`; each
 * transfer writes a `transfer` balance transaction (−amount) on the platform's
 * balance and sends `transfer.created`.
 *
 * As at Stripe: a destination needs the transfers capability. With a
 * source_transaction the money comes from that charge's funds, pending or not
 * (the transfer is available when the charge is), and no more than what remains
 * of the charge may leave it: its amount less what was refunded and what earlier
 * transfers took. Without one it comes from the available balance, and more than
 * is available is refused with Stripe's balance_insufficient.
 */

/** What is left of a charge for transfers: its amount less its refunds and its earlier transfers. */
export function remainingOfCharge(store: EmulatorStore, chargeId: string): number {
  const charge = store.charges.get(chargeId);
  if (!charge) return 0;
  const transferred = [...store.transfers.values()].filter((t) => t.source_transaction === chargeId).reduce((sum, t) => sum + t.amount, 0);
  return charge.amount - charge.amount_refunded - transferred;
}

const money = (cents: number) => `$${(cents / 100).toFixed(2)}`;

const createTransfer: Handler = ({ store }, { params, idempotencyKey }) => {
  const amount = integer(params, "amount", "amount");
  const currency = str(params, "currency");
  const destination = str(params, "destination");
  if (amount === undefined) throw requiredParam("amount");
  if (!currency) throw requiredParam("currency");
  if (!destination) throw requiredParam("destination");
  if (amount < 1) throw invalidRequest("This value must be greater than or equal to 1.", { param: "amount" });
  const account = store.accounts.get(destination);
  if (!account) throw invalidRequest(`No such destination: '${destination}'`, { param: "destination" });
  if (account.capabilities?.transfers !== "active") {
    throw invalidRequest("Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments", {
      param: "destination",
    });
  }

  const sourceId = str(params, "source_transaction") ?? null;
  let availableOn = nowSeconds();
  let transferGroup = str(params, "transfer_group") ?? null;
  if (sourceId) {
    const charge = store.charges.get(sourceId);
    if (!charge) throw invalidRequest(`No such charge: '${sourceId}'`, { param: "source_transaction", code: "resource_missing" });
    if (!charge.paid) throw invalidRequest(`The source_transaction ${sourceId} has not succeeded; only a paid charge's funds can be transferred.`, { param: "source_transaction" });
    if (charge.currency !== currency) throw invalidRequest(`The currency of the transfer (${currency}) must match the currency of its source_transaction (${charge.currency}).`, { param: "currency" });
    const remaining = remainingOfCharge(store, sourceId);
    if (amount > remaining) {
      // The emulator's wording: the transfer may not take more of its charge than is left of it.
      throw invalidRequest(
        `The transfer amount (${money(amount)}) is greater than what remains of the source_transaction ${sourceId} (${money(remaining)}, after its refunds and earlier transfers).`,
        { param: "amount", code: "balance_insufficient" },
      );
    }
    // The transfer leaves with the charge's funds: pending while they are.
    availableOn = store.balanceTransactions.get(String(charge.balance_transaction))?.available_on ?? availableOn;
    transferGroup ??= charge.transfer_group;
  } else if (platformBalance(store, currency).available < amount) {
    throw invalidRequest(
      "You have insufficient available funds in your Stripe account. Try adding funds directly to your available balance by creating Charges using the 4000000000000077 test card. See: https://stripe.com/docs/testing#available-balance",
      { code: "balance_insufficient" },
    );
  }

  const transaction = newBalanceTransaction({ amount: -amount, fee: 0, currency, source: "", type: "transfer", reportingCategory: "transfer", description: null });
  Object.assign(transaction, { available_on: availableOn, status: availableOn <= nowSeconds() ? "available" : "pending" });
  const transfer = newTransfer({
    amount,
    currency,
    destination,
    sourceTransaction: sourceId,
    transferGroup,
    balanceTransaction: transaction.id,
    description: str(params, "description") ?? null,
    metadata: metadataOf(params),
  });
  transaction.source = transfer.id;
  store.balanceTransactions.set(transaction.id, transaction);
  store.transfers.set(transfer.id, transfer);
  return ok(transfer, [newEvent("transfer.created", transfer, { idempotencyKey })]);
};

/** Transfers newest first, by transfer_group, destination, or both, as Stripe lists them. */
const listTransfers: Handler = ({ store }, { params }) => {
  const group = str(params, "transfer_group");
  const destination = str(params, "destination");
  const matching = [...store.transfers.values()].filter((t) => (!group || t.transfer_group === group) && (!destination || t.destination === destination)).reverse();
  return ok(store.list("/v1/transfers", matching, strings(params, "expand"), limitOf(params)));
};

export const TRANSFER_ROUTES: Route[] = [
  route("POST", "/v1/transfers", createTransfer),
  route("GET", "/v1/transfers", listTransfers),
  route("GET", "/v1/transfers/:id", retrieve((store) => store.transfers, "transfer")),
];
