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
  { type: "opportunity.hearted", label: "Opportunity hearted", description: "People hearted your opportunities (sent in batches, at most one per opportunity every few minutes)." },
  { type: "notification.created", label: "Notification created", description: "Something appeared in your notifications." },
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
