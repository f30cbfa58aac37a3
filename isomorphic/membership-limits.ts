/**
 * What a membership tier may hold, checked on the server and shown by the forms (ADR 0084).
 * Prices are integer minor units per period and stay within isomorphic/payment-limits.ts: every
 * renewal is a card payment like a tip.
 */
export const MEMBERSHIP_LIMITS = {
  /** Tiers a page offers at once (paused ones count; retired ones do not). */
  tiersPerPage: 5,
  nameMax: 60,
  benefitsMax: 8,
  benefitMax: 140,
  welcomeMax: 1000,
  /** $3.00: below it the provider's fixed fee eats most of a monthly payment. */
  minimumPrice: 300,
  /** $1,000.00 a period, the most a member may choose to pay too. */
  maximumPrice: 100_000,
  memberLimitMax: 100_000,
  /** A post to members. */
  postSubjectMax: 120,
  postBodyMax: 10_000,
  /** Posts a creator may send per day, across their pages (the rate limit). */
  postsPerDay: 3,
} as const;

export const MEMBERSHIP_INTERVAL_LABELS = { month: "Monthly", year: "Yearly" } as const;
export const MEMBERSHIP_PER = { month: "/month", year: "/year" } as const;

export const MEMBERSHIP_STATUS_LABELS = {
  pending: "Checkout open",
  active: "Active",
  past_due: "Past due",
  cancelled: "Cancelled",
  ended: "Ended",
  expired: "Checkout expired",
} as const;
