import type { Metrics } from "#server/platform/metrics/metrics";
import type { PaymentEvent } from "#server/providers/payments/events";

export type WebhookStage = "received" | "processed" | "duplicate" | "ignored" | "failed";

/** What a handled event means for a payment or a refund (the rest are accounts and Pro billing). */
function paymentOutcome(event: PaymentEvent): [kind: string, outcome: string] | null {
  switch (event.type) {
    case "checkout.completed":
      return ["checkout", event.paymentStatus === "unpaid" ? "pending" : "succeeded"];
    case "checkout.async_payment_succeeded":
      return ["checkout", "succeeded"];
    case "checkout.async_payment_failed":
      return ["checkout", "failed"];
    case "checkout.expired":
      return ["checkout", "expired"];
    case "dispute.changed":
      return ["dispute", event.status];
    case "charge.refunded":
      return ["refund", "succeeded"];
    case "refund.updated":
      // Its success is the charge.refunded above; only a refund that did not happen is new here.
      return event.status === "failed" || event.status === "canceled" ? ["refund", "failed"] : null;
    default:
      return null;
  }
}

/** Counts webhook events by type and stage, and the payments they settle. */
export function webhookObserver(metrics: Pick<Metrics, "webhooks" | "payments">) {
  return (event: PaymentEvent, stage: WebhookStage) => {
    metrics.webhooks.events.inc({ type: event.type, stage });
    const outcome = stage === "processed" ? paymentOutcome(event) : null;
    if (outcome) metrics.payments.outcomes.inc({ kind: outcome[0], outcome: outcome[1] });
  };
}

