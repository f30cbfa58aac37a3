import type { PublicNotification } from "#server/domains/notifications/public-notification";
import type { OpportunityHeartedData } from "#server/domains/opportunities/hearted-webhooks";
import type { PublicPayment } from "#server/domains/payments/records/public-payment";
import type { PublicMembership } from "#server/domains/pro/public-membership";
import type { WebhookEventType } from "#isomorphic/webhook-events";

/**
 * One realistic delivery body per event type, for the OpenAPI document and the webhooks guide.
 * Typed by the shapes the producers build, and checked against the document by
 * server/features/api/contract.test.ts, so an example cannot drift from what is sent.
 */
const PAID_AT = "2026-11-20T18:42:07.000Z";

const paid: PublicPayment = {
  id: "ss_9c2e41d07a5b3f86e1d2a4c7",
  kind: "tip",
  status: "completed",
  amount: 2500,
  currency: "usd",
  sponsorEmail: "maya.fan@example.com",
  message: "Your sourdough series got me through November. Keep baking!",
  createdAt: "2026-11-20T18:41:12.000Z",
  refundStatus: "none",
  dispute: null,
  paymentReference: "pi_3QhX2bLkT8vR0s1A0dE4fG7h",
  figures: { gross: 2500, returned: 0, fee: 250, net: 2250, processorFee: 103 },
  movements: [{ kind: "payment", createdAt: PAID_AT, gross: 2500, fee: 250, net: 2250, processorFee: 103 }],
};

const refunded: PublicPayment = {
  ...paid,
  status: "refunded",
  refundStatus: "succeeded",
  figures: { gross: 2500, returned: 2500, fee: 0, net: 0, processorFee: 103 },
  movements: [...paid.movements, { kind: "refund", createdAt: "2026-11-21T09:15:30.000Z", gross: -2500, fee: -250, net: -2250, processorFee: 0 }],
};

const disputed: PublicPayment = {
  ...paid,
  status: "disputed",
  dispute: { status: "needs_response", reason: "fraudulent", evidenceDueBy: "2026-12-04T23:59:59.000Z" },
  figures: { gross: 2500, returned: 2500, fee: 0, net: 0, processorFee: 1603 },
  movements: [...paid.movements, { kind: "dispute", createdAt: "2026-11-24T11:02:44.000Z", gross: -2500, fee: -250, net: -2250, processorFee: 1500 }],
};

const started: PublicMembership = { plan: "star_power", planName: "Star Power", status: "active", currentPeriodEnd: "2027-11-20T18:42:07.000Z", cancelAtPeriodEnd: false };

const ended: PublicMembership = { ...started, status: "canceled", currentPeriodEnd: "2026-11-20T18:42:07.000Z", cancelAtPeriodEnd: true };

const hearted: OpportunityHeartedData = {
  opportunity: { id: "8206386400_Tq7Lm2XcR9vB4nK8sD1a", title: "Looking for cooking creators for our winter spice box" },
  newHearts: 3,
  totalHearts: 41,
  from: "2026-11-26T09:55:30.000Z",
  to: "2026-11-26T10:00:30.000Z",
};

const notified: PublicNotification = {
  id: "4b8f2c1e-7d3a-4e5b-9f60-2a1c3d4e5f67",
  kind: "payment-received",
  title: "Payment received",
  message: "You received $25.00 from maya.fan@example.com as a tip.",
  unread: true,
  createdAt: PAID_AT,
  readAt: null,
  action: { text: "View payment", url: "https://sponsorgrid.example/app/account/sponsors/payments/ss_9c2e41d07a5b3f86e1d2a4c7" },
};

const DATA: Record<WebhookEventType, unknown> = {
  "payment.succeeded": paid,
  "payment.refunded": refunded,
  "payment.disputed": disputed,
  "pro.started": started,
  "pro.ended": ended,
  "opportunity.hearted": hearted,
  "notification.created": notified,
};

/** The whole body of an example delivery of `type`. */
export function webhookExample(type: WebhookEventType) {
  return { type, timestamp: type === "opportunity.hearted" ? "2026-11-26T10:01:00.000Z" : PAID_AT, data: DATA[type] };
}
