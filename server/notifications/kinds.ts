/**
 * What an alert is about. Kept on the row (notifications.kind) so that a test
 * or a later filter can count alerts of one kind without reading their words.
 */
export const NOTIFICATION_KINDS = [
  "general",
  "payment-received",
  "refund-done",
  "payouts-enabled",
  "dispute-opened",
  "pro-started",
  "pro-renewal-failed",
  "pro-ended",
] as const;

export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];
