import type { LedgerEntryKind } from "#server/platform/db/schema";
import type { ProviderBalanceTransaction } from "#server/providers/payments/port";

/**
 * A movement of money as the ledger knows it: one kind and one provider
 * reference (a payment intent for payments and refunds, a dispute id for
 * disputes and their reversals; for a deal's held money, the payment intent
 * of its payment, the refund id of each refund and the transfer id of each
 * release), which is the ledger's own unique key. Reconciliation folds the
 * provider's balance transactions into the same movements and compares figure
 * by figure (ADR 0054).
 */
export type MovementKey = `${LedgerEntryKind}:${string}`;
export const movementKey = (kind: LedgerEntryKind, reference: string): MovementKey => `${kind}:${reference}`;

/** What the provider's balance says of one movement. `platformFee` null: the provider does not state it. */
export type ProviderMovement = {
  kind: LedgerEntryKind;
  reference: string;
  paymentIntentId: string | null;
  sessionId: string | null;
  /** A deal's movement: the funding its held charge paid (the charge carries it; refunds and transfers are tied by payment intent). */
  fundingId: string | null;
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
  fundingId: string | null;
  kind: LedgerEntryKind;
  gross: number;
  providerFee: number;
  platformFee: number;
  currency: string;
  providerReference: string;
  created: Date;
};

/**
 * Which figures of its movement a balance transaction adds its amount to (its fee always goes to
 * providerFee, the platform's cost): `gross`, `platformFee`, or both (`held`).
 */
type Figure = "gross" | "platformFee" | "held";

/**
 * Which ledger movement each balance transaction belongs to, and which of its
 * figures it adds to. On a destination charge (a tip), the transfer (the
 * creator's share, moved on by the provider at once) and anything else
 * (payouts, Pro billing's own fees) are not ledger movements: counted, not
 * compared.
 *
 * A deal's charge is held on the platform's balance (separate charges and transfers), and its
 * rows (deal-ledger.ts) read `platform_fee` as what the platform holds and `net` as what reached
 * the creator. The provider's figures are compared in that sense:
 *
 * | provider (platform's balance)   | ledger row            | gross   | provider_fee | platform_fee       |
 * |---------------------------------|-----------------------|---------|--------------|--------------------|
 * | charge +paid, fee               | deal_payment (pi_…)   | +paid   | fee          | +paid: all held    |
 * | refund −amount                  | deal_refund (re_…)    | −amount | its fee (0)  | −amount: held less |
 * | transfer −share                 | deal_release (tr_…)   | 0       | its fee (0)  | −share: held less  |
 *
 * A transfer's amount is the platform's balance going down, which is the release row's
 * platform_fee (−share); its net (+share, what reached the creator) is gross − platform_fee by the
 * ledger's own check, so it is compared through those two. Nothing of a transfer came from or went
 * to the sponsor, so its gross is 0 on both sides.
 */
function placeOf(t: ProviderBalanceTransaction, held: ReadonlySet<string>): { kind: LedgerEntryKind; reference: string; figure: Figure } | null {
  const isHeld = t.paymentIntentId !== null && held.has(t.paymentIntentId);
  switch (t.type) {
    case "charge":
      if (isHeld) return { kind: "deal_payment", reference: t.paymentIntentId!, figure: "held" };
      return t.paymentIntentId ? { kind: "payment", reference: t.paymentIntentId, figure: "gross" } : null;
    case "application_fee":
      return t.paymentIntentId ? { kind: "payment", reference: t.paymentIntentId, figure: "platformFee" } : null;
    case "refund":
      if (isHeld) return { kind: "deal_refund", reference: t.sourceId, figure: "held" };
      return t.paymentIntentId ? { kind: "refund", reference: t.paymentIntentId, figure: "gross" } : null;
    case "application_fee_refund":
      return t.paymentIntentId ? { kind: "refund", reference: t.paymentIntentId, figure: "platformFee" } : null;
    case "transfer":
      return isHeld ? { kind: "deal_release", reference: t.sourceId, figure: "platformFee" } : null;
    case "dispute":
      return t.disputeId ? { kind: "dispute", reference: t.disputeId, figure: "gross" } : null;
    case "dispute_reversal":
      return t.disputeId ? { kind: "dispute_reversal", reference: t.disputeId, figure: "gross" } : null;
    default:
      return null;
  }
}

const isDealKind = (kind: LedgerEntryKind) => kind === "deal_payment" || kind === "deal_refund" || kind === "deal_release";

/**
 * `held`: the payment intents of deals' held charges (run.ts finds them in deal_fundings), whose
 * charge, refunds and transfers are deal movements; every other one is a tip's or not ours.
 */
export function providerMovements(
  transactions: readonly ProviderBalanceTransaction[],
  held: ReadonlySet<string> = new Set(),
): { movements: Map<MovementKey, ProviderMovement>; uncompared: number } {
  const movements = new Map<MovementKey, ProviderMovement>();
  let uncompared = 0;
  for (const t of transactions) {
    const place = placeOf(t, held);
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
        fundingId: null,
        gross: 0,
        providerFee: 0,
        // Payments and refunds carry the application fee (or its refund) as its own transaction;
        // a dispute's split between platform and creator is ours, not the provider's.
        // A deal's are the platform's own balance, so the provider states them too.
        platformFee: place.kind === "payment" || place.kind === "refund" || isDealKind(place.kind) ? 0 : null,
        currencies: [],
        at: t.created,
        transactionIds: [],
      };
      movements.set(key, movement);
    }
    if (place.figure !== "platformFee") movement.gross += t.amount;
    if (place.figure !== "gross") movement.platformFee = (movement.platformFee ?? 0) + t.amount;
    // The provider's fee on any of them (an application fee's own, a transfer's) is the platform's cost too.
    movement.providerFee += t.fee;
    // A held charge's metadata names its deal_fundings row, not a sponsor session.
    if (isDealKind(place.kind)) movement.fundingId ??= t.sessionId;
    else movement.sessionId ??= t.sessionId;
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
  /** A deal's movement: its deal_fundings row (sessionId is then null). */
  fundingId: string | null;
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
 * our sponsor payments or deals' held charges at all (Pro billing's charges are the provider's too).
 */
export function compareMovements(input: {
  provider: Map<MovementKey, ProviderMovement>;
  ledger: Map<MovementKey, LedgerRow>;
  ours: (movement: ProviderMovement) => boolean;
  sessionOf: (movement: ProviderMovement) => string | null;
  /** A deal movement's funding (its charge's, or the one its payment intent paid). */
  fundingOf?: (movement: ProviderMovement) => string | null;
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
        sessionId: isDealKind(p.kind) ? null : input.sessionOf(p),
        fundingId: isDealKind(p.kind) ? (input.fundingOf?.(p) ?? p.fundingId) : null,
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
    if (fields.length > 0) differences.push({ ...base, problem: "amounts-differ", sessionId: l.sessionId, fundingId: l.fundingId, ledgerEntryId: l.id, fields });
  }
  for (const [key, l] of input.ledger) {
    if (input.provider.has(key) || !input.inPeriod(l.created)) continue;
    compared += 1;
    differences.push({
      problem: "missing-at-provider",
      kind: l.kind,
      reference: l.providerReference,
      sessionId: l.sessionId,
      fundingId: l.fundingId,
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
