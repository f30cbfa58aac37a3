/**
 * The events an account's webhook endpoints can subscribe to (ADR 0057). Each delivery's body is
 * `{ type, timestamp, data }`; `data` is the same object the API answers for it.
 */
export const WEBHOOK_EVENT_TYPES = [
  { type: "payment.succeeded", label: "Payment succeeded", description: "A sponsor's or fan's payment to you went through." },
  { type: "payment.refunded", label: "Payment refunded", description: "A payment to you was refunded." },
  { type: "payment.disputed", label: "Payment disputed", description: "A payer opened a dispute (chargeback), or its status changed." },
  { type: "pro.started", label: "Pro started", description: "Your Pro membership began." },
  { type: "pro.ended", label: "Pro ended", description: "Your Pro membership ended." },
  { type: "membership.created", label: "Member joined", description: "A fan joined one of your membership tiers: their first payment went through." },
  { type: "membership.renewed", label: "Membership renewed", description: "A member's monthly or yearly payment went through." },
  { type: "membership.payment_failed", label: "Membership payment failed", description: "A member's renewal could not be charged; it is retried, and they stay a member meanwhile." },
  { type: "membership.cancelled", label: "Membership cancelled", description: "A membership was cancelled: it stays until its paid period ends, then ends." },
  { type: "membership.ended", label: "Membership ended", description: "A membership is over: its period ran out after a cancel, its renewal's retries gave up, or it was ended at once." },
  { type: "opportunity.hearted", label: "Opportunity hearted", description: "People hearted your opportunities (sent in batches, at most one per opportunity every few minutes)." },
  { type: "notification.created", label: "Notification created", description: "Something appeared in your notifications." },
  { type: "deal.proposed", label: "Deal proposed", description: "A deal began: a creator applied to your brief or you to theirs, or a sponsor made an offer (either side gets it)." },
  { type: "deal.countered", label: "Deal countered", description: "One side of your deal answered with new terms." },
  { type: "deal.agreed", label: "Deal agreed", description: "The terms of your deal were accepted: the sponsor can now pay to book it." },
  { type: "deal.declined", label: "Deal declined", description: "One side of your deal declined the terms on the table." },
  { type: "deal.withdrawn", label: "Deal withdrawn", description: "One side walked away from your deal before it was paid for." },
  { type: "deal.funded", label: "Deal funded", description: "The sponsor's payment arrived and is held: your deal is booked and the work can start." },
  { type: "deal.work_submitted", label: "Work submitted", description: "The creator handed in a deliverable of your deal." },
  { type: "deal.changes_requested", label: "Changes requested", description: "The sponsor asked for changes to a deliverable of your deal." },
  { type: "deal.completed", label: "Deal completed", description: "Every deliverable was approved and the creator's share was paid out." },
  { type: "deal.disputed", label: "Deal disputed", description: "A side of your booked deal (or the sponsor's bank) opened a dispute: the money stays held until staff decide." },
  { type: "deal.dispute_decided", label: "Dispute decided", description: "Staff decided a dispute on your deal: what goes to the creator and what back to the sponsor, and why." },
  { type: "deal.cancelled", label: "Deal cancelled", description: "Your booked deal was cancelled, and the sponsor's money is going back." },
  { type: "deal.message", label: "Deal message", description: "A new message in one of your deals' threads (yours too, so every copy can follow it)." },
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number]["type"];

export function isWebhookEventType(value: unknown): value is WebhookEventType {
  return typeof value === "string" && WEBHOOK_EVENT_TYPES.some((event) => event.type === value);
}

/** At most this many endpoints per account. */
export const MAX_WEBHOOK_ENDPOINTS_PER_ACCOUNT = 10;

/** The longest endpoint address and description taken (the forms' maxlength, and the server's check). */
export const WEBHOOK_URL_MAX = 2000;
export const WEBHOOK_DESCRIPTION_MAX = 200;
