import type { Server } from "node:http";
import type { ServerBuild } from "react-router";
import crypto from "node:crypto";
import http from "node:http";
import { spendNonce } from "#server/abuse/spent-nonces";
import { createAuth } from "#server/auth/auth";
import { createCaptcha } from "#server/captcha/captcha";
import { loadConfig } from "#server/config";
import { createMailer } from "#server/email/mailer";
import { notificationDepsOf } from "#server/notifications/deps";
import { startHeartsDigest } from "#server/notifications/hearts-digest";
import { createPaymentProvider } from "#server/payments/setup";
import { openConfiguredDatabase } from "#server/db/open";
import { seedDatabase } from "#server/db/seed";
import { closeSearchLog } from "#server/search-log/search-log";
import { generationSourceFor, guestPageCacheFor } from "#server/page-cache/setup";
import { guestPagesChanged } from "#server/page-cache/generation";
import { cachedTagCatalogue } from "#server/opportunities/tags";
import { createBioHost } from "#server/bio/host/bio-host";
import { closeViewCounter, viewCounterFor } from "#server/bio/host/view-counter";
import { closeSandbox, sandboxFor } from "#server/payments/sandbox/runtime";
import { listenForNotificationChanges } from "#server/notifications/changes";
import { createNotificationStreams } from "#server/notifications/stream";
import { countUnreadNotifications } from "#server/notifications/unread";
import { createHttpApp, type DevelopmentServer } from "./app";
import { listen } from "./listen";
import { createLogger } from "./logging";
import { resolveSessionSecret } from "./secret";

type StartOptions = {
  build: ServerBuild | (() => Promise<ServerBuild>);
  clientDir: string;
  env?: Record<string, string | undefined>;
  /** Only `npm run dev` (server/http/dev.ts). */
  development?: DevelopmentServer;
};

/**
 * Boots one app process: config, lock (embedded database only), database,
 * migrations, seed, HTTP. SIGINT/SIGTERM stop intake, drain, checkpoint, close.
 */
export async function startServer({ build, clientDir, env = process.env, development }: StartOptions) {
  const config = loadConfig(env);
  const logger = createLogger(config.LOG_LEVEL);

  const { database, close: closeDatabase } = await openConfiguredDatabase(config, {
    onIdleClientError: (error) => logger.warn({ err: error }, "database connection lost; the pool reconnects"),
  });

  await database.migrate();
  const seeded = await seedDatabase(database.db);
  logger.info({ engine: database.engine, ...seeded }, "database ready");

  const sessionSecret = resolveSessionSecret(config.SESSION_SECRET, config.DATA_DIR);
  const db = database.db;
  const mailer = createMailer({ db, smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, logger, production: config.NODE_ENV === "production" });
  if (config.DEV_MAILBOX && config.NODE_ENV === "production") {
    logger.warn({ devMailbox: true }, "DEV_MAILBOX is on in production: /dev/mailbox shows password-reset links to requests from this machine");
  }
  const auth = createAuth({ db, config, secret: sessionSecret, mailer, logger });
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
  // Stripe when configured, else the built-in sandbox (one per database, shared with its /sandbox pages).
  const payments = createPaymentProvider(config, { sandbox: () => sandboxFor({ db, config, sessionSecret, logger }) });
  const generation = generationSourceFor(database);
  const guestPages = guestPageCacheFor(config, database, generation);
  // New tags from this start's seed: every process (and its cached guest pages) reads them next.
  if (seeded.tagsAdded > 0) await guestPagesChanged(db);
  const tagCatalogue = cachedTagCatalogue(db, generation);
  // Live unread counts: every committed alert change (the trigger of migration 0013) reaches this
  // process through LISTEN, and each tab's stream hears its user's new count (ADR 0024).
  const notificationStreams = createNotificationStreams({
    countUnread: (uid) => countUnreadNotifications(db, uid),
    onError: (error, uid) => logger.warn({ err: error, uid }, "unread count not sent; the next change sends it"),
  });
  const notificationChanges = await listenForNotificationChanges(database, {
    onChange: notificationStreams.changed,
    onGap: () => {
      logger.info("notification changes: listening again; every open stream's count is sent again");
      notificationStreams.refreshAll();
    },
    onError: (error) => logger.warn({ err: error }, "notification changes: connection lost; reconnecting"),
  });
  const app = createHttpApp({ build, clientDir, development, logger, config, db, sessionSecret, auth, mailer, captcha, payments, tagCatalogue, guestPages, notificationStreams });
  const counter = viewCounterFor(db, {
    onError: (error, pendingKeys) => logger.warn({ err: error, pendingKeys }, "bio page views not written yet; kept for the next try"),
  });
  // The sandbox payment provider delivers its stored events to our webhook endpoint from this process.
  if (config.PAYMENT_PROVIDER === "sandbox") {
    sandboxFor({ db, config, sessionSecret, logger }).start();
    // Chosen outright (server/config.ts refuses production otherwise): said once, so no operator mistakes it for real payments.
    if (config.NODE_ENV === "production") logger.warn("Payments run on the sandbox (PAYMENT_PROVIDER=sandbox): test mode, no real money moves and Pro is free to take");
  }
  // The daily hearts roll-up: now, then hourly; every process may run it (one alert per person and day).
  const heartsDigest = startHeartsDigest({ db, deps: notificationDepsOf({ mailer, config, sessionSecret }), logger });
  const bioHost = createBioHost({ config, db, generation, counter, logger });
  // The bio host, then guest pages kept in memory, are answered before Express (server/bio/host/, server/page-cache/).
  const appListener: http.RequestListener = guestPages ? (req, res) => guestPages.handle(req, res, () => app(req, res)) : app;
  const server: Server = http.createServer((req, res) => (bioHost.handles(req) ? bioHost.handle(req, res) : appListener(req, res)));

  let stopping: Promise<void> | null = null;
  const stop = (reason: string) => {
    stopping ??= (async () => {
      logger.info({ reason }, "shutting down: no new requests");
      // Refuse new connections, let in-flight requests finish, drop idle keep-alives.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Event streams never finish by themselves: end them, and their browsers reconnect elsewhere.
      notificationStreams.closeAll();
      server.closeIdleConnections();
      // The streams' connections turn idle once their last bytes are out.
      setImmediate(() => server.closeIdleConnections());
      await notificationChanges.close();
      const forced = setTimeout(() => server.closeAllConnections(), 10_000);
      await closed;
      clearTimeout(forced);
      await heartsDigest.close();
      // A mail under way finishes (bounded); queued mail waits in the database for the next start.
      await mailer.close();
      // So does a sandbox event delivery; undelivered events wait in the database.
      await closeSandbox(db);
      // Searches counted in the last few seconds are written before the database closes.
      await closeSearchLog(db);
      // So are bio page views and link clicks (at most a second's worth wait in memory).
      await closeViewCounter(db);
      await closeDatabase();
      logger.info("database closed; bye");
    })();
    return stopping;
  };

  try {
    await listen(server, config.PORT, config.HOST);
  } catch (error) {
    // Nothing was served: close what started (the database is checkpointed, its lock released).
    await stop(`could not listen on port ${config.PORT}`);
    throw error;
  }
  logger.info({ url: config.PUBLIC_ORIGIN, port: config.PORT }, `${config.APP_NAME} is running at ${config.PUBLIC_ORIGIN}`);

  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      stop(signal).then(
        () => process.exit(0),
        (error) => {
          logger.error({ err: error }, "shutdown failed");
          process.exit(1);
        },
      );
    });
  }
  return { server, config, stop };
}
