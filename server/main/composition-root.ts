import { whyPayeeCannotBePaid } from "#server/domains/payments/checkout/payee-standing";
import crypto from "node:crypto";
import type { Logger } from "pino";
import { spendNonce } from "#server/platform/abuse/spent-nonces";
import { createAuth, type Auth } from "#server/domains/auth/auth";
import { createBioHost, type BioHost } from "#server/domains/bio/host/bio-host";
import { createViewCounter, type ViewCounter } from "#server/domains/bio/host/view-counter";
import { createCaptcha, type Captcha } from "#server/platform/captcha/captcha";
import { createPhotoMedia, type PhotoMedia } from "#server/domains/media/media";
import type { Config } from "#server/platform/config";
import type { DatabaseHandle, Db } from "#server/platform/db/client";
import { openConfiguredDatabase } from "#server/platform/db/open";
import { seedDatabase } from "#server/tools/seed";
import { createMailer, type Mailer } from "#server/platform/email/mailer";
import { listenForNotificationChanges } from "#server/domains/notifications/changes";
import { notificationDepsOf } from "#server/domains/notifications/deps";
import { createNotificationStreams, type NotificationStreams } from "#server/domains/notifications/stream";
import { countUnreadNotifications } from "#server/domains/notifications/unread";
import { cachedTagCatalogue, type TagCatalogueReader } from "#server/domains/opportunities/tags";
import type { GenerationSource } from "#server/platform/page-cache/generation";
import type { GuestPageCache } from "#server/platform/page-cache/guest-page-cache";
import { guestPageCacheFor, startGenerationSource } from "#server/platform/page-cache/setup";
import type { PaymentProvider } from "#server/providers/payments/port";
import { createSandboxProvider, type SandboxProvider } from "#server/providers/payments/sandbox/provider";
import { createPaymentProvider, demoPayoutAccount, providerMigrations } from "#server/providers/payments/choose-provider";
import { createSearchLog, type SearchLog } from "#server/platform/search-log/search-log";
import { ensuringProPricesOnce } from "#server/domains/pro/prices";
import { resolveSessionSecret } from "#server/platform/http/secret";
import { createMetrics, type Metrics } from "#server/platform/metrics/metrics";
import type { Scheduler } from "#server/platform/jobs/scheduler";
import { createJobPlatform, type JobPlatform } from "#server/platform/jobs/platform";
import { createTaskQueue, type TaskQueue } from "#server/platform/jobs/task-queue";
import { handleAuthTasks } from "#server/domains/auth/tasks";
import { handleMemberPostTasks, postMailDepsOf } from "#server/domains/memberships/post-mail";
import { scheduledJobsOf } from "#server/main/scheduled-jobs";
import { attachServiceMetrics, countingPayments, webhookAttemptObserver } from "#server/main/service-metrics";
import { PRODUCT_MIGRATIONS } from "#server/platform/db/migrate";
import { createWebhookWorker, type WebhookWorker } from "#server/platform/outgoing-webhooks/worker";
import { createProbes, type Probes } from "./probes";
import { failureLog, lostConnectionLog } from "#server/platform/db/unavailable";
import { migrateConfiguredDatabase } from "#server/main/migrate-configured";
import { chargingCalls, type CostKind } from "#server/platform/http/request-cost";
import type { RequestIds } from "#server/platform/http/request-id";

/** Everything one app process runs with, built once at start by `startServices`. */
export type Services = {
  config: Config;
  logger: Logger;
  /** This process's Prometheus metrics (server/platform/metrics/). */
  metrics: Metrics;
  database: DatabaseHandle;
  db: Db;
  sessionSecret: string;
  mailer: Mailer;
  auth: Auth;
  captcha: Captcha;
  /** Opportunity and sponsor searches, counted in memory and written in batches. */
  searchLog: SearchLog;
  /** Bio page views and link clicks, counted in memory and written every second. */
  viewCounter: ViewCounter;
  /** The built-in payment sandbox, when it is the provider (its pages and delivery worker use it); else null. */
  sandbox: SandboxProvider | null;
  /** The configured card payment provider; it asks for the Pro prices once per process. */
  payments: PaymentProvider;
  /** The guest pages' generation (moved by the database's trigger), shared by the caches below. */
  generation: GenerationSource;
  /** Guest pages kept in memory, or null when GUEST_PAGE_CACHE=off. */
  guestPages: GuestPageCache | null;
  tagCatalogue: TagCatalogueReader;
  /** Each open tab's live unread count. */
  notificationStreams: NotificationStreams;
  /** The bio host (BIO_ORIGIN), answered before Express. */
  bioHost: BioHost;
  /** Profile photos: their processing turns and the cache of their bytes (both hosts serve them). */
  photos: PhotoMedia;
  /** Outgoing webhooks' delivery worker: `webhooks.kick()` after queuing events or a resend sends them now. */
  webhooks: WebhookWorker;
  /** Periodic jobs, once per period across every process (server/platform/jobs/); `scheduler.stuck()` for readiness. */
  scheduler: Scheduler;
  /** The job platform: owns every piece of background work of this process (queues' loops, periodic jobs, flushed buffers) and closes it. */
  jobs: JobPlatform;
  /** Durable work handed off by requests (a password reset), run by whichever process claims it. */
  tasks: TaskQueue;
  /** /livez and /readyz (server/main/probes.ts); background parts report their health to it. */
  probes: Probes;
};

export type RunningServices = {
  services: Services;
  /** Closes what was built, the last built first; the database last of all. */
  close(): Promise<void>;
};

/**
 * The composition root: the one place that builds the services of an app process, in order,
 * and remembers how to close each. Nothing else keeps state across requests: routes receive
 * these through the load context (server/main/context.ts), workers through their arguments.
 * Should a step fail, what was built before it is closed again before the error goes on.
 */
export async function startServices(config: Config, logger: Logger, requestIds?: Pick<RequestIds, "charge">): Promise<RunningServices> {
  const closers: { name: string; close: () => Promise<void> | void }[] = [];
  const owned = <T>(name: string, service: T, close: (service: T) => Promise<void> | void): T => {
    closers.push({ name, close: () => close(service) });
    return service;
  };
  const close = async () => {
    for (let closer = closers.pop(); closer; closer = closers.pop()) {
      logger.debug({ service: closer.name }, "closing");
      await closer.close();
    }
  };

  try {
    return { services: await build(config, logger, owned, requestIds?.charge ?? (() => {})), close };
  } catch (error) {
    await close().catch((closeError: unknown) => logger.error({ err: closeError }, "closing after a failed start failed"));
    throw error;
  }
}

type Owned = <T>(name: string, service: T, close: (service: T) => Promise<void> | void) => T;

/** Counts against the request being answered, if any (server/platform/http/request-cost.ts). */
type Charge = (kind: CostKind) => void;

async function build(config: Config, logger: Logger, owned: Owned, charge: Charge): Promise<Services> {
  const metrics = createMetrics();
  const opened = await openConfiguredDatabase(config, {
    onQuery: (seconds) => {
      metrics.database.queryDuration.observe({ engine: config.DATABASE_URL ? "postgres" : "pglite" }, seconds);
      charge("statements");
    },
    onIdleClientError: lostConnectionLog(logger),
  });
  // Closed last: it checkpoints the embedded database and releases its lock.
  const database = owned("database", opened.database, () => opened.close());
  // The product's tables, then the payment provider's own (the sandbox's, only when it is the provider).
  await migrateConfiguredDatabase(config, database);
  const seeded = await seedDatabase(database.db, { payoutAccount: demoPayoutAccount(config) });
  logger.info({ engine: database.engine, ...seeded }, "database ready");
  const db = database.db;
  const probes = createProbes({ db, chains: [PRODUCT_MIGRATIONS, ...providerMigrations(config)] });

  // Background work, all of it: closed just before the database, after everything that adds to it.
  const jobs = owned("job platform", createJobPlatform({ db, logger, metrics }), (platform) => platform.close());

  const sessionSecret = resolveSessionSecret(config.SESSION_SECRET, config.DATA_DIR);
  // A mail under way finishes (bounded); queued mail waits in the database for the next start.
  const mailer = jobs.work("mailer", createMailer({ db, smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, logger, production: config.NODE_ENV === "production" }));
  if (config.DEV_MAILBOX && config.NODE_ENV === "production") {
    logger.warn({ devMailbox: true }, "DEV_MAILBOX is on in production: /dev/mailbox shows password-reset links to requests from this machine");
  }
  const auth = createAuth({ db, config, secret: sessionSecret, mailer, logger });
  // Handlers first, then the loop: a task left by an earlier run goes at once.
  const taskQueue = createTaskQueue({ db, logger });
  handleAuthTasks(taskQueue, auth);
  handleMemberPostTasks(taskQueue, db, postMailDepsOf({ mailer, config, sessionSecret, logger }));
  const tasks = jobs.work("queued tasks", taskQueue);
  const captcha = createCaptcha({
    provider: config.CAPTCHA_PROVIDER,
    // A key of its own, derived so that one secret is all an operator manages.
    hmacKey: crypto.createHmac("sha256", sessionSecret).update("altcha").digest("hex"),
    maxNumber: config.ALTCHA_MAX_NUMBER,
    siteKey: config.CAPTCHA_SITE_KEY,
    secretKey: config.CAPTCHA_SECRET_KEY,
    onError: (error) => logger.warn({ err: error }, "captcha check could not be made"),
    spendNonce: (nonce, expiresAt) => spendNonce(db, nonce, expiresAt),
  });

  // Searches and bio page views counted in the last seconds are written before the database closes.
  // A database outage is logged once as it starts and once as it ends, not at every flush.
  const searchLogFailures = failureLog(logger, "search log", "search log flush failed");
  const viewFailures = failureLog(logger, "bio page views", "bio page views not written yet; kept for the next try");
  const searchLog = jobs.flush(
    "search log",
    createSearchLog(db, {
      onDropped: (dropped) => logger.warn({ dropped }, "search log buffer full: searches dropped"),
      onError: (err) => searchLogFailures.failed(err),
      onFlushed: () => searchLogFailures.succeeded(),
    }),
  );
  const viewCounter = jobs.flush(
    "view counter",
    createViewCounter(db, {
      // The same for every process on the database, so that each sees the visits the others counted.
      visitorSalt: crypto.createHmac("sha256", sessionSecret).update("bio-visitors").digest(),
      onError: (error, pendingKeys) => viewFailures.failed(error, { pendingKeys }),
      onFlushed: () => viewFailures.succeeded(),
    }),
  );

  // Stripe when configured, else the built-in sandbox, which delivers its stored events to our
  // webhook endpoint from this process (undelivered events wait in the database).
  // Its checkouts' expiry is periodic work (server/main/scheduled-jobs.ts).
  const sandbox = config.PAYMENT_PROVIDER === "sandbox" ? jobs.work("payment sandbox events", createSandboxProvider({ db, config, sessionSecret, logger, whyPayeeCannotBePaid: (sessionId) => whyPayeeCannotBePaid(db, sessionId) })) : null;
  if (sandbox) {
    // Chosen outright (server/platform/config.ts refuses production otherwise): said once, so no operator mistakes it for real payments.
    if (config.NODE_ENV === "production") logger.warn("Payments run on the sandbox (PAYMENT_PROVIDER=sandbox): test mode, no real money moves and Pro is free to take");
  }
  // Checking a webhook's signature is local work; every other method asks the provider.
  const payments = chargingCalls(countingPayments(ensuringProPricesOnce(createPaymentProvider(config, { sandbox: () => sandbox! })), metrics), "providerCalls", charge, ["parseWebhook"]);

  const generation = owned("guest page generation", await startGenerationSource(database), (source) => source.close());
  const guestPages = guestPageCacheFor(config, generation, (outcome) => metrics.guestCache.lookups.inc({ cache: "guest", outcome }));
  const tagCatalogue = cachedTagCatalogue(db, generation);

  // Live unread counts: every committed notification change (the trigger of migration 0013) reaches this
  // process through LISTEN, and each tab's stream hears its user's new count (ADR 0024).
  const listenFailures = failureLog(logger, "notification changes", "notification changes: connection lost; reconnecting");
  const notificationStreams = owned(
    "notification streams",
    createNotificationStreams({
      countUnread: (uid) => countUnreadNotifications(db, uid),
      onError: (error, uid) => logger.warn({ err: error, uid }, "unread count not sent; the next change sends it"),
    }),
    (streams) => streams.closeAll(),
  );
  owned(
    "notification changes",
    await listenForNotificationChanges(database, {
      onChange: notificationStreams.changed,
      onGap: () => {
        probes.health.up("notification LISTEN");
        listenFailures.succeeded();
        logger.info("notification changes: listening again; every open stream's count is sent again");
        notificationStreams.refreshAll();
      },
      onError: (error) => {
        probes.health.down("notification LISTEN", "connection lost; reconnecting");
        listenFailures.failed(error);
      },
    }),
    (listening) => listening.close(),
  );
  // Outgoing webhooks: rows claimed with a lease, so every process works the one queue (ADR 0057).
  const webhooks = jobs.work(
    "webhook worker",
    createWebhookWorker({
      db,
      sessionSecret,
      logger,
      onAttempt: webhookAttemptObserver(metrics),
      targets: config.WEBHOOK_TARGETS,
      mail: { mailer, site: { appName: config.APP_NAME, supportEmail: config.SUPPORT_EMAIL, publicOrigin: config.PUBLIC_ORIGIN } },
    }),
  );
  // Periodic jobs (the hearts roll-up, expiring closed checkouts, pruning): each once per period across all processes.
  const scheduler = jobs.schedule(scheduledJobsOf({ db, notificationDeps: notificationDepsOf({ mailer, config, sessionSecret }), logger, payments, sandbox }));
  probes.health.watch("job scheduler", () => jobs.stuck());
  const photos = createPhotoMedia({ db, generation });
  const bioHost = createBioHost({
    config,
    db,
    generation,
    counter: viewCounter,
    logger,
    photos: photos.server,
    onPageLookup: (outcome) => metrics.guestCache.lookups.inc({ cache: "bio", outcome }),
  });

  attachServiceMetrics(metrics, { database, sandbox: sandbox !== null, openStreams: notificationStreams.openCount });
  return { probes, config, logger, metrics, database, db, sessionSecret, mailer, auth, captcha, searchLog, viewCounter, sandbox, payments, generation, guestPages, tagCatalogue, notificationStreams, bioHost, photos, scheduler, jobs, tasks, webhooks };
}
