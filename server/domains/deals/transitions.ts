import type { DealSide, DealState } from "#server/platform/db/schema";

/**
 * THE table of a deal's moves: for each action, the states it may be taken in, the state it
 * leads to, and who may take it. Every action on a deal is checked here and nowhere else, so a
 * state can only change along a row of this table (server/domains/deals/transitions.test.ts walks
 * random sequences through it).
 *
 * - `answerer`: the side the terms on the table wait on (not the side that proposed them).
 * - `either`: both sides.
 * - `receiver`: the side that received the deal (the poster of its opportunity, or the creator
 *   a sponsor wrote to directly).
 * - `sponsor`: the sponsor (cancelling after a missed due date; act.ts checks the date).
 * - `cancel-asker`: either side, while nobody has asked to cancel the booked deal.
 * - `cancel-answerer`: the side that did not ask to cancel, once the other did.
 * - `platform`: neither side; the platform moves the deal when the provider reports money.
 */
export type DealActor = "answerer" | "either" | "receiver" | "sponsor" | "cancel-asker" | "cancel-answerer" | "platform";

/** What a side may do. */
export const DEAL_ACTIONS = ["counter", "accept", "decline", "withdraw", "shortlist", "request_cancel", "agree_cancel", "cancel_late", "dispute"] as const;
export type DealAction = (typeof DEAL_ACTIONS)[number];
/**
 * What only the platform does: `fund` when the sponsor's payment for the agreed terms arrived,
 * `complete` when every deliverable was approved and the creator's share was transferred,
 * `freeze` when the sponsor's bank disputed the held charge, and, once the money staff decided
 * on has moved, `settle_paid` (the creator was paid some of it) or `settle_refunded` (none).
 */
export const PLATFORM_ACTIONS = ["fund", "complete", "freeze", "settle_paid", "settle_refunded"] as const;
export type PlatformAction = (typeof PLATFORM_ACTIONS)[number];

type Move = { from: readonly DealState[]; to: DealState | "unchanged"; by: DealActor };

export const DEAL_TRANSITIONS: Record<DealAction | PlatformAction, Move> = {
  // New terms from the side that was to answer: still proposed, now waiting on the other side.
  counter: { from: ["proposed"], to: "proposed", by: "answerer" },
  accept: { from: ["proposed"], to: "agreed", by: "answerer" },
  decline: { from: ["proposed"], to: "declined", by: "answerer" },
  // Before any money moved, either side may walk away.
  withdraw: { from: ["proposed", "agreed"], to: "withdrawn", by: "either" },
  shortlist: { from: ["proposed"], to: "unchanged", by: "receiver" },
  // Once the money is held, cancelling takes both sides (or a due date the creator missed); the
  // money then goes back to the sponsor (refunds.ts).
  request_cancel: { from: ["funded"], to: "unchanged", by: "cancel-asker" },
  agree_cancel: { from: ["funded"], to: "cancelled", by: "cancel-answerer" },
  cancel_late: { from: ["funded"], to: "cancelled", by: "sponsor" },
  // Either side stops a booked deal's money moving until staff decide (disputes.ts).
  dispute: { from: ["funded"], to: "disputed", by: "either" },
  // The sponsor paid for the agreed terms: the deal is booked, and nobody can walk away alone.
  fund: { from: ["agreed"], to: "funded", by: "platform" },
  complete: { from: ["funded"], to: "completed", by: "platform" },
  freeze: { from: ["funded"], to: "disputed", by: "platform" },
  settle_paid: { from: ["disputed"], to: "completed", by: "platform" },
  settle_refunded: { from: ["disputed"], to: "cancelled", by: "platform" },
};

/** Where a deal stands, as far as the table needs to know. */
export type DealPosition = { state: DealState; waitingOn: DealSide | null; openedBy: DealSide; cancelRequestedBy?: DealSide | null };

export type MoveRefusal = "WRONG_STATE" | "NOT_YOUR_TURN";

function mayAct(actor: DealActor, side: DealSide, deal: DealPosition): boolean {
  if (actor === "platform") return false;
  if (actor === "either") return true;
  if (actor === "sponsor") return side === "sponsor";
  if (actor === "cancel-asker") return !deal.cancelRequestedBy;
  if (actor === "cancel-answerer") return !!deal.cancelRequestedBy && deal.cancelRequestedBy !== side;
  if (actor === "answerer") return deal.waitingOn === side;
  return deal.openedBy !== side;
}

/** Why `side` may not take `action` on `deal` now, or null when it may. */
export function whyNot(action: DealAction, side: DealSide, deal: DealPosition): MoveRefusal | null {
  const move = DEAL_TRANSITIONS[action];
  if (!move.from.includes(deal.state)) return "WRONG_STATE";
  return mayAct(move.by, side, deal) ? null : "NOT_YOUR_TURN";
}

export function otherSide(side: DealSide): DealSide {
  return side === "creator" ? "sponsor" : "creator";
}

/** Whether the platform may take `action` on a deal in `state`: the same table, with no side. */
export function platformMay(action: PlatformAction, state: DealState): boolean {
  return DEAL_TRANSITIONS[action].from.includes(state);
}

/** The position after `side` took `action` (already allowed by `whyNot`). */
export function positionAfter(action: DealAction, side: DealSide, deal: DealPosition): DealPosition {
  const move = DEAL_TRANSITIONS[action];
  const state = move.to === "unchanged" ? deal.state : move.to;
  const waitingOn = state !== "proposed" ? null : action === "counter" ? otherSide(side) : deal.waitingOn;
  const cancelRequestedBy = action === "request_cancel" ? side : (deal.cancelRequestedBy ?? null);
  return { state, waitingOn, openedBy: deal.openedBy, cancelRequestedBy };
}

/** The actions `side` may take now, in the table's order: what a deal page offers. */
export function actionsFor(side: DealSide, deal: DealPosition): DealAction[] {
  return DEAL_ACTIONS.filter((action) => whyNot(action, side, deal) === null);
}
