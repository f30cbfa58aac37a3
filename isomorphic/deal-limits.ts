/** What one deal's texts and lists may hold: the server's checks and the forms' hints share them. */
export const MAX_DELIVERABLES = 10;
export const MAX_DEAL_TEXT = 2000;
export const MAX_DEAL_LINKS = 3;
export const MAX_MESSAGE_TEXT = 4000;

/** Where each way into a deal lives: a brief is applied to, a request is answered with an offer. */
export function openDealPath(opportunityId: string, kind: "brief" | "request"): string {
  return `/app/opportunities/${opportunityId}/${kind === "brief" ? "apply" : "offer"}`;
}

/** How many times a sponsor may send one deliverable back for changes before they can only approve it. */
export const MAX_CHANGE_ROUNDS = 2;
