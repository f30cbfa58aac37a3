import { sql } from "drizzle-orm";
import type { DatabaseHandle } from "#server/db/client";
import type { PaymentProvider } from "#server/payments/provider";
import type { PaymentEvent } from "#server/payments/events";
import type { Metrics } from "./metrics";

/**
 * Hands the scrape-time gauges what they read: the pool, the outboxes' depth and oldest age
 * (one query per scrape; the sandbox's events only when it is the provider), the open streams.
 */
export function attachServiceMetrics(
  metrics: Metrics,
  { database, sandbox, openStreams }: { database: Pick<DatabaseHandle, "db" | "poolStats">; sandbox: boolean; openStreams: () => number },
): void {
  const waiting = (queue: string, table: string, where: string, created: string) =>
    `select '${queue}' as queue, count(*)::int as depth,
            coalesce(extract(epoch from now() - min(${created})), 0)::float8 as oldest
       from ${table} where ${where}`;
  const queries = [
    waiting("mail", "email_outbox", "status = 'queued'", "created_at"),
    // Outgoing webhooks waiting for an attempt (those of disabled endpoints included: they wait too).
    waiting("webhooks", "webhook_deliveries", "status = 'pending'", "created_at"),
  ];
  if (sandbox) queries.push(waiting("sandbox_events", "sandbox.sandbox_events", "delivered_at is null and failed_at is null", "created"));
  const outboxQuery = sql.raw(queries.join("\nunion all\n"));
  metrics.attach({
    pool: database.poolStats,
    openStreams,
    async outboxes() {
      const result = (await database.db.execute(outboxQuery)) as unknown as { rows: { queue: string; depth: number; oldest: number }[] };
      return result.rows.map((row) => ({ queue: row.queue, depth: Number(row.depth), oldestAgeSeconds: Number(row.oldest) }));
    },
  });
}

/**
 * The same provider, counting checkouts opened and refunds asked for by their answer; the
 * domain functions stay as they are. What happens later (paid, failed, refunded) arrives as
 * webhook events, counted by `webhookObserver`.
 */
export function countingPayments<P extends PaymentProvider>(provider: P, metrics: Pick<Metrics, "payments">): P {
  const count = (kind: string, outcome: string) => metrics.payments.outcomes.inc({ kind, outcome });
  const createSponsorCheckout: PaymentProvider["createSponsorCheckout"] = async (input) => {
    try {
      const created = await provider.createSponsorCheckout(input);
      count("checkout", "started");
      return created;
    } catch (error) {
      count("checkout", "error");
      throw error;
    }
  };
  const refundPayment: PaymentProvider["refundPayment"] = async (input) => {
    try {
      const refund = await provider.refundPayment(input);
      count("refund", refund.status === "failed" || refund.status === "canceled" ? "failed" : "requested");
      return refund;
    } catch (error) {
      count("refund", "error");
      throw error;
    }
  };
  return new Proxy(provider, {
    get: (target, key, receiver) =>
      key === "createSponsorCheckout" ? createSponsorCheckout : key === "refundPayment" ? refundPayment : Reflect.get(target, key, receiver),
  });
}

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

/** Outgoing webhook attempts, by outcome, for the delivery worker's `onAttempt` (server/outgoing-webhooks/worker.ts). */
export function webhookAttemptObserver(metrics: Pick<Metrics, "webhooksOut">): (outcome: "delivered" | "retry" | "failed", seconds: number) => void {
  return (outcome, seconds) => {
    metrics.webhooksOut.deliveries.inc({ outcome });
    metrics.webhooksOut.attemptDuration.observe({ outcome }, seconds);
  };
}
