/**
 * Where a fan joins a membership tier and lands after paying, on the app host (ADR 0084): the
 * bio page's "Join" links, the join page and the provider's return addresses name them here.
 */
export const JOIN_PATH = "/app/memberships/join";
export const WELCOME_PATH = "/app/memberships/welcome";

/** The join page of one tier of the page at `ending`. */
export function joinPath(ending: string, tierId: string, interval?: "month" | "year"): string {
  const query = new URLSearchParams({ page: ending, tier: tierId, ...(interval ? { interval } : {}) });
  return `${JOIN_PATH}?${query.toString()}`;
}

/** The welcome page of one membership (its id is the provider's success address's only fact). */
export const welcomePath = (membershipId: string) => `${WELCOME_PATH}?membership=${encodeURIComponent(membershipId)}`;
