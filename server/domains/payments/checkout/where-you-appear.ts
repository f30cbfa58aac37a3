import type { SponsorSessionStatus } from "#server/platform/db/schema";

/**
 * Where a fan's support shows once it is paid, as the thank-you page tells
 * them: the same rules the supporter wall reads by (server/domains/bio/wall.ts,
 * only paid and standing supports the owner did not hide, a private one
 * without its name, message and amount), so the page never promises a place
 * the wall does not give.
 *
 * - `wall`: on the page's supporter wall under `name` ("Someone" when null), with the message and amount.
 * - `wall-private`: on the wall as "A private supporter", without name, message or amount.
 * - `owner-only`: the page shows no wall; only its owner sees the support.
 * - `not-shown`: not on the page (refunded, disputed, hidden by the owner, or the page is gone).
 */
export type WhereYouAppear = { kind: "wall"; name: string | null } | { kind: "wall-private" } | { kind: "owner-only" } | { kind: "not-shown" };

export type SupportPlacement = {
  status: SponsorSessionStatus;
  private: boolean;
  hiddenFromWall: boolean;
  supporterName: string | null;
  /** The page still exists and its owner has the wall on (null: the page is gone). */
  wallEnabled: boolean | null;
};

export function whereYouAppear(support: SupportPlacement): WhereYouAppear {
  if (support.wallEnabled === null || support.status !== "completed") return { kind: "not-shown" };
  if (!support.wallEnabled) return { kind: "owner-only" };
  if (support.hiddenFromWall) return { kind: "not-shown" };
  if (support.private) return { kind: "wall-private" };
  return { kind: "wall", name: support.supporterName?.trim() || null };
}
