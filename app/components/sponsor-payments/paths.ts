import type { LedgerEntryKind } from "#server/platform/db/schema";

export const SPONSORS_DASHBOARD_PATH = "/app/account/sponsors";
/** My Sponsorships; one payment's Info page is `${PAYMENTS_PATH}/{sessionId}`. */
export const PAYMENTS_PATH = "/app/account/sponsors/payments";

/** A ledger movement in words. */
export const ACTIVITY_LABELS: Record<LedgerEntryKind, string> = {
  payment: "Payment",
  refund: "Refund",
  dispute: "Dispute",
  dispute_reversal: "Dispute won",
  deal_payment: "Deal payment held",
  deal_refund: "Deal refund",
  deal_release: "Deal payment released",
};
