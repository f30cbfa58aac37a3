/** What staff read for a membership's status; a cancelled one still runs to its period's end. */
export const MEMBERSHIP_STATUS_LABELS = {
  pending: "Pending (checkout open)",
  active: "Active",
  past_due: "Past due (retrying)",
  cancelled: "Cancelled (runs to period end)",
  ended: "Ended",
  expired: "Expired (never paid)",
} as const;

export const INTERVAL_WORDS = { month: "month", year: "year" } as const;
