import { sql } from "drizzle-orm";
import type { DatabaseHandle } from "#server/platform/db/client";
import type { PaymentProvider } from "#server/providers/payments/port";
import type { Metrics } from "#server/platform/metrics/metrics";
import { dealsByState, moneyHeldForDeals } from "#server/domains/deals/figures";
import { membershipPeriodsPaidSince, membershipsByStatus } from "#server/features/back-office/membership-figures";

/**
 * Hands the scrape-time gauges what they read: the pool, the outboxes' depth and oldest age
 * (one query per scrape; the sandbox's events only when it is the provider), the open streams, and
 * the deal room's deals per state and money held (two grouped queries per scrape), memberships per
 * status and the periods paid in the last 24 hours (two more).
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
    // Work handed off by requests (a password reset), waiting for its run or its retry.
    waiting("tasks", "queued_tasks", "status = 'queued'", "created_at"),
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
    async deals() {
      const [states, held] = await Promise.all([dealsByState(database.db), moneyHeldForDeals(database.db)]);
      return { states, held };
    },
    async memberships() {
      const [statuses, periodsPaid24h] = await Promise.all([membershipsByStatus(database.db), membershipPeriodsPaidSince(database.db, new Date())]);
      return { statuses, periodsPaid24h };
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

/** Outgoing webhook attempts, by outcome, for the delivery worker's `onAttempt` (server/platform/outgoing-webhooks/worker.ts). */
export function webhookAttemptObserver(metrics: Pick<Metrics, "webhooksOut">): (outcome: "delivered" | "retry" | "failed", seconds: number) => void {
  return (outcome, seconds) => {
    metrics.webhooksOut.deliveries.inc({ outcome });
    metrics.webhooksOut.attemptDuration.observe({ outcome }, seconds);
  };
}
