import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

/**
 * Every Prometheus metric of one app process, in one registry built by the composition root
 * (no module-level registry: two servers in one test process must not share counts). Served at
 * `/metrics` only with `Authorization: Bearer $METRICS_TOKEN` (server/platform/metrics/http.ts).
 * Labels are bounded sets: a route's pattern, never its raw path; a status class, never a code.
 */
export type Metrics = ReturnType<typeof createMetrics>;

/** What the gauges read when scraped (server/main/service-metrics.ts fills them in once the services exist). */
export type MetricSources = {
  pool?: () => { total: number; idle: number; waiting: number };
  outboxes?: () => Promise<readonly { queue: string; depth: number; oldestAgeSeconds: number }[]>;
  openStreams?: () => number;
  /** The deal room's figures: deals per state (every state), money held per currency (non-zero only). */
  deals?: () => Promise<{ states: Record<string, number>; held: readonly { currency: string; amount: number }[] }>;
  /** Memberships per status (every status), and the periods paid in the last 24 hours. */
  memberships?: () => Promise<{ statuses: Record<string, number>; periodsPaid24h: number }>;
};

export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  // Read at scrape time only: nothing polls the pool or the outbox between scrapes.
  const sources: MetricSources = {};
  // Both outbox gauges are collected in one scrape: they share one query.
  let outboxRead: ReturnType<NonNullable<MetricSources["outboxes"]>> | null = null;
  const readOutboxes = () => {
    if (!sources.outboxes) return Promise.resolve([]);
    outboxRead ??= sources.outboxes().finally(() => (outboxRead = null));
    return outboxRead;
  };

  // Both deal gauges are collected in one scrape too: one read of the two grouped queries.
  let dealsRead: ReturnType<NonNullable<MetricSources["deals"]>> | null = null;
  const readDeals = () => {
    if (!sources.deals) return Promise.resolve(null);
    dealsRead ??= sources.deals().finally(() => (dealsRead = null));
    return dealsRead;
  };

  // Both membership gauges are collected in one scrape too: one read of their two queries.
  let membershipsRead: ReturnType<NonNullable<MetricSources["memberships"]>> | null = null;
  const readMemberships = () => {
    if (!sources.memberships) return Promise.resolve(null);
    membershipsRead ??= sources.memberships().finally(() => (membershipsRead = null));
    return membershipsRead;
  };

  return {
    registry,
    /** Gives the scrape-time gauges what they read; called once by the composition root. */
    attach(attached: MetricSources) {
      Object.assign(sources, attached);
    },
    http: {
      /** By route pattern ("/app/opportunities/:id", "bio page", "guest page") and status class ("2xx"). */
      requestDuration: new Histogram({
        name: "sponsorgrid_http_request_duration_seconds",
        help: "Time to answer an HTTP request, by route pattern and status class.",
        labelNames: ["method", "route", "status_class"] as const,
        buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
        registers,
      }),
    },
    guestCache: {
      /** outcome: hit | miss | stale | bypass. cache: guest | bio | document. */
      lookups: new Counter({
        name: "sponsorgrid_page_cache_lookups_total",
        help: "Cached page lookups, by cache and outcome.",
        labelNames: ["cache", "outcome"] as const,
        registers,
      }),
    },
    database: {
      queryDuration: new Histogram({
        name: "sponsorgrid_db_query_duration_seconds",
        help: "Time spent in database queries.",
        labelNames: ["engine"] as const,
        buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
        registers,
      }),
      /** state: total | idle | waiting (PostgreSQL's pool; the embedded database has one connection). */
      pool: new Gauge({
        name: "sponsorgrid_db_pool_connections",
        help: "Database pool connections, by state.",
        labelNames: ["state"] as const,
        registers,
        collect() {
          const pool = sources.pool?.();
          if (!pool) return;
          this.set({ state: "total" }, pool.total);
          this.set({ state: "idle" }, pool.idle);
          this.set({ state: "waiting" }, pool.waiting);
        },
      }),
    },
    outbox: {
      /** queue: mail | sandbox_events | webhooks | … */
      depth: new Gauge({
        name: "sponsorgrid_outbox_depth",
        help: "Rows waiting in an outbox queue.",
        labelNames: ["queue"] as const,
        registers,
        async collect() {
          for (const queue of await readOutboxes()) this.set({ queue: queue.queue }, queue.depth);
        },
      }),
      oldestAgeSeconds: new Gauge({
        name: "sponsorgrid_outbox_oldest_age_seconds",
        help: "Age of the oldest row waiting in an outbox queue (0 when empty).",
        labelNames: ["queue"] as const,
        registers,
        async collect() {
          for (const queue of await readOutboxes()) this.set({ queue: queue.queue }, queue.oldestAgeSeconds);
        },
      }),
    },
    webhooks: {
      /** stage: received | processed | duplicate | failed, by the provider event's type. */
      events: new Counter({
        name: "sponsorgrid_payment_webhook_events_total",
        help: "Payment provider webhook events, by type and stage.",
        labelNames: ["type", "stage"] as const,
        registers,
      }),
    },
    webhooksOut: {
      /** Outgoing webhook attempts by what came of the delivery: delivered | retry | failed (given up). */
      deliveries: new Counter({
        name: "sponsorgrid_webhook_deliveries_total",
        help: "Outgoing webhook delivery attempts, by outcome.",
        labelNames: ["outcome"] as const,
        registers,
      }),
      attemptDuration: new Histogram({
        name: "sponsorgrid_webhook_attempt_duration_seconds",
        help: "Time of one outgoing webhook attempt (address check, request, response), by outcome.",
        labelNames: ["outcome"] as const,
        buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
        registers,
      }),
    },
    payments: {
      /** kind: checkout | refund; outcome: started | succeeded | failed | refused. */
      outcomes: new Counter({
        name: "sponsorgrid_payments_total",
        help: "Payments and refunds, by kind and outcome.",
        labelNames: ["kind", "outcome"] as const,
        registers,
      }),
    },
    notifications: {
      openStreams: new Gauge({
        name: "sponsorgrid_notification_streams_open",
        help: "Open live unread-count streams in this process.",
        registers,
        collect() {
          if (sources.openStreams) this.set(sources.openStreams());
        },
      }),
    },
    deals: {
      /** state: proposed | agreed | funded | completed | cancelled | declined | withdrawn, each present (0 when none). */
      byState: new Gauge({
        name: "sponsorgrid_deals",
        help: "Deals, by state (from the database, at scrape).",
        labelNames: ["state"] as const,
        registers,
        async collect() {
          const read = await readDeals();
          if (!read) return;
          for (const [state, count] of Object.entries(read.states)) this.set({ state }, count);
        },
      }),
      /** currency: lower-case ISO code, only those with money held. */
      moneyHeld: new Gauge({
        name: "sponsorgrid_deal_money_held_minor",
        help: "Money the platform holds for deals not completed (paid less released and refunded), in minor units, by currency.",
        labelNames: ["currency"] as const,
        registers,
        async collect() {
          const read = await readDeals();
          if (!read) return;
          // A currency whose money all went out is dropped, not left at its last value.
          this.reset();
          for (const held of read.held) this.set({ currency: held.currency }, held.amount);
        },
      }),
    },
    memberships: {
      /** status: pending | active | past_due | cancelled | ended | expired, each present (0 when none). */
      byStatus: new Gauge({
        name: "sponsorgrid_memberships",
        help: "Memberships, by status (from the database, at scrape).",
        labelNames: ["status"] as const,
        registers,
        async collect() {
          const read = await readMemberships();
          if (!read) return;
          for (const [status, count] of Object.entries(read.statuses)) this.set({ status }, count);
        },
      }),
      periodsPaid24h: new Gauge({
        name: "sponsorgrid_membership_periods_paid_24h",
        help: "Membership periods paid (first payments and renewals) in the last 24 hours, from the ledger, at scrape.",
        registers,
        async collect() {
          const read = await readMemberships();
          if (read) this.set(read.periodsPaid24h);
        },
      }),
    },
    jobs: {
      /** outcome: succeeded | failed | skipped (another process holds it). */
      runs: new Counter({ name: "sponsorgrid_job_runs_total", help: "Scheduled job runs in this process, by job and outcome.", labelNames: ["job", "outcome"] as const, registers }),
      lastRunSeconds: new Gauge({ name: "sponsorgrid_job_last_run_timestamp_seconds", help: "When the job last finished (any process), Unix seconds.", labelNames: ["job"] as const, registers }),
      nextRunSeconds: new Gauge({ name: "sponsorgrid_job_next_run_timestamp_seconds", help: "When the job is next due (any process), Unix seconds.", labelNames: ["job"] as const, registers }),
      consecutiveFailures: new Gauge({ name: "sponsorgrid_job_consecutive_failures", help: "Failures of the job since its last success (any process).", labelNames: ["job"] as const, registers }),
      duration: new Histogram({
        name: "sponsorgrid_job_duration_seconds",
        help: "Scheduled job run time in this process.",
        labelNames: ["job"] as const,
        buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60],
        registers,
      }),
    },
  };
}
