/**
 * What a report can say is wrong: the Code of Conduct's "What is not allowed" categories
 * (content/pages/code-of-conduct.md), by the same names, so a reporter and staff read the policy's
 * own words. Browser-safe: the report form lists them.
 */
export const REPORT_REASONS = [
  "Harassment",
  "Hate",
  "Scams",
  "Misleading offers",
  "Adult content",
  "Undisclosed paid promotion",
  "Spam",
  "Impersonation",
  "Illegal activity",
] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

export function isReportReason(value: string): value is ReportReason {
  return (REPORT_REASONS as readonly string[]).includes(value);
}

/** The note a reporter may add, and the reason staff give for an outcome, in characters. */
export const REPORT_NOTE_MAX = 1000;
export const MODERATION_REASON_MAX = 500;

/** Where a report stands in the back office's queue (its tabs, and the column's values). */
export const REPORT_STATUSES = ["open", "actioned", "dismissed"] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

export function isReportStatus(value: string): value is ReportStatus {
  return (REPORT_STATUSES as readonly string[]).includes(value);
}

/** What is reported: a bio page (by its ending) or an opportunity (by its id). */
export type ReportTargetType = "bio_page" | "opportunity";

/** The address of the report form for a target, on the app host (ADR 0050). */
export function reportPath(type: ReportTargetType, id: string): string {
  return type === "bio_page" ? `/report?page=${encodeURIComponent(id)}` : `/report?opportunity=${encodeURIComponent(id)}`;
}
