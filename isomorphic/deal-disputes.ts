/** What staff may decide about a disputed deal's held money (the server's check and the form's choices). */
export const DISPUTE_DECISION_LABELS = {
  release: "Release: pay the creator as if the work were approved",
  refund: "Refund: give the sponsor all of their money back",
  split: "Split: refund part to the sponsor, pay the rest to the creator",
} as const;
export type DisputeDecisionName = keyof typeof DISPUTE_DECISION_LABELS;

/** Where a decided dispute's money goes; the three parts add up to what the sponsor paid. */
export type DisputeSplit = { sponsorRefund: number; creatorShare: number; platformKeeps: number };

/**
 * The amounts of a decision, in minor units. A release pays the creator what approval would have
 * (the price less the platform's fee fixed at funding); a refund gives the sponsor everything back
 * and the platform keeps nothing; a split refunds `sponsorRefund` and releases the rest, of which
 * the platform keeps its fee in proportion (rounded to the nearest unit), so a split is a smaller
 * deal as far as the fee goes. `sponsorRefund` is checked by the caller (1 to amount − 1).
 */
export function disputeSplit(funding: { amount: number; platformFee: number }, decision: DisputeDecisionName, sponsorRefund = 0): DisputeSplit {
  if (decision === "release") return { sponsorRefund: 0, creatorShare: funding.amount - funding.platformFee, platformKeeps: funding.platformFee };
  if (decision === "refund") return { sponsorRefund: funding.amount, creatorShare: 0, platformKeeps: 0 };
  const released = funding.amount - sponsorRefund;
  const platformKeeps = Math.round((funding.platformFee * released) / funding.amount);
  return { sponsorRefund, creatorShare: released - platformKeeps, platformKeeps };
}
