/**
 * What a notification is about. Kept on the row (notifications.kind) so that a test
 * or a later filter can count notifications of one kind without reading their words,
 * and so that each kind can be mailed or not by the person's choice.
 */
export const NOTIFICATION_KINDS = [
  "general",
  "payment-received",
  "refund-done",
  "payouts-enabled",
  "dispute-opened",
  "dispute-closed",
  "pro-started",
  "pro-renewal-failed",
  "pro-ended",
  "welcome",
  "hearts-daily",
  "content-removed",
  "content-restored",
  "deal-activity",
  "member-joined",
  "member-renewed",
  "member-cancelled",
  "member-ended",
] as const;

export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export type KindEntry = {
  /** The preference's label in My Account. */
  label: string;
  /** One line under it: when this notification is written. */
  description: string;
  /** Mailed unless the person said otherwise (ADR 0025: money and account events yes, the rest no). */
  mailByDefault: boolean;
};

/** The catalogue My Account's "Notifications" section and sendNotification read (ADR 0025). */
export const NOTIFICATION_CATALOGUE: Record<NotificationKind, KindEntry> = {
  "payment-received": { label: "Payment received", description: "Someone paid you from one of your bio pages.", mailByDefault: true },
  "refund-done": { label: "Refund done", description: "A payment to you was refunded.", mailByDefault: true },
  "dispute-opened": { label: "Dispute opened", description: "A sponsor's bank disputes a payment to you.", mailByDefault: true },
  "dispute-closed": { label: "Dispute closed", description: "A dispute about a payment to you was won or lost.", mailByDefault: true },
  "payouts-enabled": { label: "Payouts enabled", description: "Your payout account is ready to take payments.", mailByDefault: true },
  "pro-started": { label: "Pro started", description: "Your Pro membership began (a receipt of sorts).", mailByDefault: true },
  "pro-renewal-failed": { label: "Pro renewal failed", description: "Your Pro membership could not be renewed.", mailByDefault: true },
  "pro-ended": { label: "Pro ended", description: "Your Pro membership ended.", mailByDefault: true },
  // Memberships (server/domains/memberships/membership-notices.ts): a renewal each month per member would flood
  // a creator's mailbox, so only joining, cancelling and ending are mailed by default.
  "member-joined": { label: "New member", description: "Someone joined one of your membership tiers.", mailByDefault: true },
  "member-renewed": { label: "Membership renewed", description: "A member's monthly or yearly payment went through.", mailByDefault: false },
  "member-cancelled": { label: "Membership cancelled", description: "A member cancelled: they stay a member until their paid period ends.", mailByDefault: true },
  "member-ended": { label: "Membership ended", description: "A membership ended, after failed renewals or at once.", mailByDefault: true },
  // Staff took down or restored a bio page or opportunity (server/domains/moderation/): always worth a mail by default.
  "content-removed": { label: "Content removed", description: "Staff took down one of your bio pages or opportunities, with the reason.", mailByDefault: true },
  "content-restored": { label: "Content restored", description: "Staff restored one of your bio pages or opportunities.", mailByDefault: true },
  // The other side of a deal is waiting on an answer: worth a mail by default, like money.
  "deal-activity": { label: "Deals", description: "Someone applied, made an offer, answered your terms or ended a deal with you.", mailByDefault: true },
  "hearts-daily": { label: "Daily hearts", description: "Once a day, how many hearts your opportunities got the day before.", mailByDefault: false },
  // The verification mail already greeted them by mail; the welcome is an in-app note.
  welcome: { label: "Welcome", description: "Once, after you verify your email address.", mailByDefault: false },
  general: { label: "Other news", description: "Anything else we tell you about your account.", mailByDefault: false },
};

/** The order My Account lists them in: money first, then membership, then the rest. */
export const PREFERENCE_ORDER: readonly NotificationKind[] = [
  "payment-received",
  "refund-done",
  "dispute-opened",
  "dispute-closed",
  "payouts-enabled",
  "pro-started",
  "pro-renewal-failed",
  "pro-ended",
  "member-joined",
  "member-renewed",
  "member-cancelled",
  "member-ended",
  "deal-activity",
  "content-removed",
  "content-restored",
  "hearts-daily",
  "welcome",
  "general",
];

export function isNotificationKind(value: string): value is NotificationKind {
  return (NOTIFICATION_KINDS as readonly string[]).includes(value);
}
