import type { LedgerEntryKind } from "#server/platform/db/schema";
import type { ProviderBalanceTransaction } from "#server/providers/payments/port";

/**
 * A movement of money as the ledger knows it: one kind and one provider
 * reference (a payment intent for payments and refunds, a dispute id for
 * disputes and their reversals), which is the ledger's own unique key.
 * Reconciliation folds the provider's balance transactions into the same
 * movements and compares figure by figure (ADR 0054).
 */
export type MovementKey = `${LedgerEntryKind}:${string}`;
export const movementKey = (kind: LedgerEntryKind, reference: string): MovementKey => `${kind}:${reference}`;

/** What the provider's balance says of one movement. `platformFee` null: the provider does not state it. */
export type ProviderMovement = {
  kind: LedgerEntryKind;
  reference: string;
  paymentIntentId: string | null;
  sessionId: string | null;
  gross: number;
  providerFee: number;
  platformFee: number | null;
  currencies: string[];
  at: Date;
  transactionIds: string[];
};

export type LedgerRow = {
  id: string;
  sessionId: string | null;
  kind: LedgerEntryKind;
  gross: number;
  providerFee: number;
  platformFee: number;
  currency: string;
  providerReference: string;
  created: Date;
};

/**
 * Which ledger movement each balance transaction belongs to, and which of its
 * figures it adds to. Transfers (the creator's share, moved on by the provider
 * on a destination charge) and anything else (payouts, Pro billing's own fees)
 * are not ledger movements: counted, not compared.
 */
function placeOf(t: ProviderBalanceTransaction): { kind: LedgerEntryKind; reference: string; figure: "gross" | "platformFee" } | null {
  switch (t.type) {
    case "charge":
      return t.paymentIntentId ? { kind: "payment", reference: t.paymentIntentId, figure: "gross" } : null;
    case "application_fee":
      return t.paymentIntentId ? { kind: "payment", reference: t.paymentIntentId, figure: "platformFee" } : null;
    case "refund":
      return t.paymentIntentId ? { kind: "refund", reference: t.paymentIntentId, figure: "gross" } : null;
    case "application_fee_refund":
      return t.paymentIntentId ? { kind: "refund", reference: t.paymentIntentId, figure: "platformFee" } : null;
    case "dispute":
      return t.disputeId ? { kind: "dispute", reference: t.disputeId, figure: "gross" } : null;
    case "dispute_reversal":
      return t.disputeId ? { kind: "dispute_reversal", reference: t.disputeId, figure: "gross" } : null;
    default:
      return null;
  }
}

export function providerMovements(transactions: readonly ProviderBalanceTransaction[]): { movements: Map<MovementKey, ProviderMovement>; uncompared: number } {
  const movements = new Map<MovementKey, ProviderMovement>();
  let uncompared = 0;
  for (const t of transactions) {
    const place = placeOf(t);
    if (!place) {
      uncompared += 1;
      continue;
    }
    const key = movementKey(place.kind, place.reference);
    let movement = movements.get(key);
    if (!movement) {
      movement = {
        kind: place.kind,
        reference: place.reference,
        paymentIntentId: t.paymentIntentId,
        sessionId: null,
        gross: 0,
        providerFee: 0,
        // Payments and refunds carry the application fee (or its refund) as its own transaction;
        // a dispute's split between platform and creator is ours, not the provider's.
        platformFee: place.kind === "payment" || place.kind === "refund" ? 0 : null,
        currencies: [],
        at: t.created,
        transactionIds: [],
      };
      movements.set(key, movement);
    }
    if (place.figure === "gross") {
      movement.gross += t.amount;
      movement.providerFee += t.fee;
    } else {
      movement.platformFee = (movement.platformFee ?? 0) + t.amount;
      // A fee the provider charged on the application fee itself would be the platform's cost too.
      movement.providerFee += t.fee;
    }
    movement.sessionId ??= t.sessionId;
    movement.paymentIntentId ??= t.paymentIntentId;
    if (!movement.currencies.includes(t.currency)) movement.currencies.push(t.currency);
    if (t.created < movement.at) movement.at = t.created;
    movement.transactionIds.push(t.id);
  }
  return { movements, uncompared };
}

export type DifferenceField = { field: "gross" | "providerFee" | "platformFee" | "currency"; provider: number | string; ledger: number | string };

/** One thing to look into. `provider` figures are what the provider's balance says, `ledger` what we recorded. */
export type Difference = {
  problem: "missing-in-ledger" | "missing-at-provider" | "amounts-differ";
  kind: LedgerEntryKind;
  reference: string;
  sessionId: string | null;
  ledgerEntryId: string | null;
  transactionIds: string[];
  at: string;
  fields: DifferenceField[];
};

function figures(movement: { gross: number; providerFee: number; platformFee: number | null }) {
  return { gross: movement.gross, providerFee: movement.providerFee, platformFee: movement.platformFee };
}

/** Compares one movement both sides have: each figure, and the currency. */
export function fieldsThatDiffer(provider: ProviderMovement, ledger: LedgerRow): DifferenceField[] {
  const differ: DifferenceField[] = [];
  const p = figures(provider);
  for (const field of ["gross", "providerFee", "platformFee"] as const) {
    const expected = p[field];
    if (expected !== null && expected !== ledger[field]) differ.push({ field, provider: expected, ledger: ledger[field] });
  }
  const currency = provider.currencies.join(",");
  if (currency !== ledger.currency) differ.push({ field: "currency", provider: currency, ledger: ledger.currency });
  return differ;
}

/**
 * Both directions, movement by movement: every provider movement must have
 * its ledger row with the same figures, and every ledger row its provider
 * movement. `ours` says whether a provider movement the ledger lacks is one of
 * our sponsor payments at all (Pro billing's charges are the provider's too).
 */
export function compareMovements(input: {
  provider: Map<MovementKey, ProviderMovement>;
  ledger: Map<MovementKey, LedgerRow>;
  ours: (movement: ProviderMovement) => boolean;
  sessionOf: (movement: ProviderMovement) => string | null;
  inPeriod: (at: Date) => boolean;
}): { differences: Difference[]; compared: number } {
  const differences: Difference[] = [];
  let compared = 0;
  for (const [key, p] of input.provider) {
    if (!input.inPeriod(p.at)) continue;
    const l = input.ledger.get(key);
    if (!l && !input.ours(p)) continue;
    compared += 1;
    const base = { kind: p.kind, reference: p.reference, transactionIds: p.transactionIds, at: p.at.toISOString() };
    if (!l) {
      const f = figures(p);
      differences.push({
        ...base,
        problem: "missing-in-ledger",
        sessionId: input.sessionOf(p),
        ledgerEntryId: null,
        fields: [
          { field: "gross", provider: f.gross, ledger: 0 },
          { field: "providerFee", provider: f.providerFee, ledger: 0 },
          ...(f.platformFee === null ? [] : [{ field: "platformFee" as const, provider: f.platformFee, ledger: 0 }]),
          { field: "currency", provider: p.currencies.join(","), ledger: "" },
        ],
      });
      continue;
    }
    const fields = fieldsThatDiffer(p, l);
    if (fields.length > 0) differences.push({ ...base, problem: "amounts-differ", sessionId: l.sessionId, ledgerEntryId: l.id, fields });
  }
  for (const [key, l] of input.ledger) {
    if (input.provider.has(key) || !input.inPeriod(l.created)) continue;
    compared += 1;
    differences.push({
      problem: "missing-at-provider",
      kind: l.kind,
      reference: l.providerReference,
      sessionId: l.sessionId,
      ledgerEntryId: l.id,
      transactionIds: [],
      at: l.created.toISOString(),
      fields: [
        { field: "gross", provider: 0, ledger: l.gross },
        { field: "providerFee", provider: 0, ledger: l.providerFee },
        { field: "platformFee", provider: 0, ledger: l.platformFee },
        { field: "currency", provider: "", ledger: l.currency },
      ],
    });
  }
  differences.sort((a, b) => a.at.localeCompare(b.at) || a.reference.localeCompare(b.reference));
  return { differences, compared };
}
