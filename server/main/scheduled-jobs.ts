import type { Logger } from "pino";
import { pruneRateLimits } from "#server/platform/abuse/rate-limit";
import { pruneSpentNonces } from "#server/platform/abuse/spent-nonces";
import { pruneCountedVisits } from "#server/domains/bio/host/view-counter";
import type { Db } from "#server/platform/db/client";
import type { ScheduledJob } from "#server/platform/jobs/scheduler";
import { runHeartsDigest } from "#server/domains/notifications/hearts-digest";
import { pruneWebhookHistory } from "#server/platform/outgoing-webhooks/prune";
import { HEARTED_BATCH_EVERY_MS, HEARTED_BATCH_JOB, queueHeartedEvents } from "#server/domains/opportunities/hearted-webhooks";
import type { NotificationDeps } from "#server/domains/notifications/send";
import { LIFT_JOB, liftExpiredSuspensions } from "#server/domains/staff/suspensions";
import type { PaymentProvider } from "#server/providers/payments/port";
import type { SandboxProvider } from "#server/providers/payments/sandbox/provider";
import { expireAllStalePendingSessions } from "#server/domains/payments/checkout/stale-sessions";
import { DAILY_AT_UTC, DAILY_JOB, reconcileYesterday } from "#server/features/reconciliation/daily";
import { autoApproveDue } from "#server/domains/deals/work";
import { releaseDueDeals } from "#server/domains/deals/release";
import { settleDecidedDisputes } from "#server/domains/deals/disputes";
import { refundCancelledDeals } from "#server/domains/deals/refunds";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * Every periodic job of the app, run once per period across all processes by the scheduler
 * (server/platform/jobs/, ADR 0042). Each must be idempotent: a run cut short by a dying process runs again.
 * Not here, because every process must do them itself (each registered with the job platform in the composition
 * root): the queues' work loops (mail, sandbox events, outgoing webhooks, queued tasks; rows leased one by one),
 * flushing the in-memory view counter and search log; and the streams' heartbeats (their own `repeat`).
 */
export function scheduledJobsOf({
  db,
  notificationDeps,
  logger,
  payments,
  sandbox = null,
}: {
  db: Db;
  notificationDeps: NotificationDeps;
  logger: Logger;
  payments: Pick<PaymentProvider, "name" | "listBalanceTransactions" | "createTransfer" | "refundHeldPayment">;
  /** The built-in payment sandbox when it is the provider: its checkouts expire and its memberships renew as Stripe's do. */
  sandbox?: Pick<SandboxProvider, "expireDueCheckouts" | "renewDueMemberships"> | null;
}): ScheduledJob[] {
  return [
    ...(sandbox
      ? [
          {
            // Open sandbox checkouts past their time: one process sweeps them, each stores checkout.expired once.
            name: "sandbox-expire-checkouts",
            every: MINUTE,
            async run() {
              const expired = await sandbox.expireDueCheckouts();
              if (expired > 0) logger.info({ expired }, "sandbox checkouts expired");
            },
          },
          {
            // Membership subscriptions whose period has ended renew, fail or end, as Stripe moves them on
            // its own clock; one process runs it, and a period is charged once however often it runs.
            name: "sandbox-renew-memberships",
            every: MINUTE,
            async run() {
              const { renewed, failed, ended } = await sandbox.renewDueMemberships();
              if (renewed + failed + ended > 0) logger.info({ renewed, failed, ended }, "sandbox memberships moved on");
            },
          },
        ]
      : []),
    {
      // Deals' money: submissions past their review window approved, every deal whose work is all
      // approved paid out, every cancelled deal's held money refunded, every decided dispute's money
      // moved (what failed before is tried again here).
      name: "deal-work",
      every: MINUTE,
      async run({ now }) {
        const approved = await autoApproveDue(db, notificationDeps, now);
        if (approved.length > 0) logger.info({ deals: approved.length }, "deal work approved by its review window");
        const released = await releaseDueDeals(db, payments, notificationDeps, now, (dealId, error) => logger.error({ err: error, dealId }, "deal release failed; tried again next run"));
        if (released.released + released.failed + released.waiting > 0) logger.info(released, "deal releases");
        const refunded = await refundCancelledDeals(db, payments, (dealId, error) => logger.error({ err: error, dealId }, "cancelled deal's refund failed; tried again next run"));
        if (refunded.refunded + refunded.pending + refunded.failed > 0) logger.info(refunded, "cancelled deals refunded");
        const settled = await settleDecidedDisputes(db, payments, notificationDeps, now, (dealId, error) => logger.error({ err: error, dealId }, "decided dispute's money not moved; tried again next run"));
        if (settled.settled + settled.pending + settled.failed > 0) logger.info(settled, "decided deal disputes settled");
      },
    },
    {
      // Suspensions whose end date passed (sign-in also lifts its own at once; ADR 0051).
      name: LIFT_JOB,
      every: MINUTE,
      async run({ now }) {
        const lifted = await liftExpiredSuspensions(db, notificationDeps, now);
        if (lifted > 0) logger.info({ lifted }, "expired suspensions lifted");
      },
    },
    {
      // Yesterday's provider balance against the ledger (ADR 0054); a late webhook has had a day and more.
      name: DAILY_JOB,
      dailyAtUtc: DAILY_AT_UTC,
      leaseMs: 15 * MINUTE,
      async run({ now }) {
        const run = await reconcileYesterday(db, payments, now);
        if (!run) return;
        const log = run.differenceCount === 0 ? logger.info.bind(logger) : logger.warn.bind(logger);
        log({ runId: run.id, compared: run.movementsCompared, differences: run.differenceCount }, "ledger reconciled with the provider");
      },
    },
    {
      // Yesterday's hearts, one notification per person and day (notification_digests holds the day).
      name: "hearts-digest",
      dailyAtUtc: "00:05",
      async run({ now }) {
        const written = await runHeartsDigest(db, notificationDeps, now);
        if (written === 0) return;
        logger.info({ written }, "daily hearts alerts written");
        // Their mail goes now rather than on the mail worker's next poll.
        notificationDeps.mailer.deliverDue().catch((error: unknown) => logger.warn({ err: error }, "hearts mail not sent yet; the worker retries"));
      },
    },
    {
      // opportunity.hearted webhook events, batched: one per hearted opportunity since its owner's last batch.
      name: HEARTED_BATCH_JOB,
      every: HEARTED_BATCH_EVERY_MS,
      async run({ now }) {
        const queued = await queueHeartedEvents(db, now);
        if (queued > 0) logger.info({ queued }, "opportunity.hearted webhook events queued");
      },
    },
    {
      // Closed checkouts no event reported; the people's own lists also expire theirs as they read.
      name: "expire-stale-checkouts",
      every: 5 * MINUTE,
      async run({ now }) {
        const expired = await expireAllStalePendingSessions(db, now);
        if (expired > 0) logger.info({ expired }, "closed pending checkouts marked expired");
      },
    },
    {
      // Also pruned every 200th write; this keeps a quiet site from keeping addresses' counters.
      name: "prune-rate-limits",
      every: HOUR,
      run: async ({ now }) => void (await pruneRateLimits(db, now)),
    },
    {
      name: "prune-spent-captcha-nonces",
      every: HOUR,
      run: async ({ now }) => void (await pruneSpentNonces(db, now)),
    },
    {
      // Outgoing webhook events, deliveries and attempts older than 30 days (the delivery log's window).
      name: "prune-webhook-history",
      every: HOUR,
      async run({ now }) {
        const pruned = await pruneWebhookHistory(db, now);
        if (pruned > 0) logger.info({ pruned }, "old webhook events pruned");
      },
    },
    {
      // Bio page visits counted more than a window ago decide nothing any more (view-counter.ts).
      name: "prune-counted-bio-visits",
      every: 10 * MINUTE,
      run: async ({ now }) => void (await pruneCountedVisits(db, now)),
    },
  ];
}
