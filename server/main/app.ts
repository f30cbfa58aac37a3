import { createRequestHandler } from "@react-router/express";
import { toNodeHandler } from "better-auth/node";
import compression from "compression";
import express, { type ErrorRequestHandler, type RequestHandler } from "express";
import type { Logger } from "pino";
import type { ServerBuild } from "react-router";
import { captchaRouter } from "#server/platform/captcha/routes";
import { FUNCTIONS_BODY_LIMIT, FUNCTIONS_PATH_PREFIX, functionsRouter, refuseOversizedCall } from "#server/features/functions/router";
import { paymentCallables } from "#server/features/functions/callables/index";
import { getSessionUser } from "#server/domains/auth/session";
import { SESSION_COOKIE_PREFIX } from "#server/domains/auth/auth";
import { verifyRecaptchaFunction } from "#server/features/functions/verify-recaptcha";
import { WEBHOOK_PATH_PREFIX, webhookBodyRule } from "#server/features/payment-webhooks/http";
import { UNSUBSCRIBE_PATH_PREFIX } from "#server/domains/notifications/unsubscribe-token";
import { MEMBER_MUTE_PATH } from "#server/domains/memberships/post-mail";
import { NOTIFICATION_STREAM_PATH, notificationStreamHandler } from "#server/domains/notifications/http-stream";
import type { Services } from "./composition-root";
import { photoBodyRule } from "#server/domains/media/http";
import { dealUploadBodyRule } from "#server/domains/deals/upload-form";
import { importBodyRule } from "#server/domains/sponsor-directory/import-form";
import { apiBodyRule, publicApi } from "#server/features/api/http";
import { API_PATH_PREFIX } from "#server/features/api/operation";
import { capRequestBodies } from "#server/platform/http/body-limit";
import { BROTLI_PARAMS } from "#server/platform/http/document-encoding";
import { trustedForwarding } from "#server/platform/http/forwarding";
import { refuseUnknownHosts } from "#server/platform/http/host-check";
import { requestLogger } from "#server/platform/http/logging";
import { refuseUnreadableUrls } from "#server/platform/http/malformed-url";
import type { RequestIds } from "#server/platform/http/request-id";
import { backOfficeResponses } from "#server/platform/http/back-office";
import { ADMIN_PATH } from "#server/domains/auth/staff-guard";
import { personalisedResponses } from "#server/platform/http/personalised";
import { precompressedAssets } from "#server/platform/http/precompressed";
import { createRenderedDocuments, neverKept } from "#server/platform/http/rendered-documents";
import { refuseCrossSiteWrites } from "#server/platform/http/same-origin";
import { securityHeaders } from "#server/platform/http/security";
import { PREVIEW_PATH as BIO_PREVIEW_PATH } from "#server/domains/bio/host/preview";
import { guardTestRoutes, TEST_ROUTES_PATH } from "#server/platform/http/test-routes";
import { testHooksRouter, type LoadContextOf } from "#server/tools/test-hooks/router";
import { isDatabaseUnavailable } from "#server/platform/db/unavailable";
import { OUTAGE_HEADERS, OUTAGE_HTML, OUTAGE_STATUS } from "#server/platform/http/outage";

/** What `npm run dev` adds (server/main/dev.ts): Vite, which serves the modules pages load in development. */
export type DevelopmentServer = { middlewares: RequestHandler };

type HttpAppOptions = {
  /** The built app, or (development) a function that loads the current one per request. */
  build: ServerBuild | (() => Promise<ServerBuild>);
  clientDir: string;
  /** What the composition root built (server/main/composition-root.ts). */
  services: Services;
  /** Where each request's id is kept while it is answered (the logger reads it too). */
  requestIds?: RequestIds;
  development?: DevelopmentServer | null;
};

/** The whole HTTP surface: headers, logging, static files, then React Router. */
export function createHttpApp({ build, clientDir, services, requestIds, development }: HttpAppOptions) {
  const { logger, metrics, config, db, sessionSecret, auth, mailer, captcha, payments, sandbox, searchLog, viewCounter, tagCatalogue, guestPages, notificationStreams, photos, webhooks, tasks } = services;
  const app = express();
  app.disable("x-powered-by");
  // A hop count or the proxies' addresses (server/platform/config.ts); never "trust every X-Forwarded-For".
  app.set("trust proxy", config.TRUST_PROXY);

  // Guards first: who sent it and through which proxy, for which host, what address, how big.
  app.use(trustedForwarding());
  app.use(requestLogger(logger, requestIds));
  app.use(
    securityHeaders({
      captchaProvider: config.CAPTCHA_PROVIDER,
      imageOrigins: [config.BIO_ORIGIN],
      ownPolicyPaths: [BIO_PREVIEW_PATH],
      formTargetOrigins: [...payments.hostedPages.externalOrigins],
    }),
  );
  app.use(refuseUnknownHosts(config));
  app.use(refuseUnreadableUrls());
  app.use(
    capRequestBodies([
      {
        prefix: FUNCTIONS_PATH_PREFIX,
        limit: FUNCTIONS_BODY_LIMIT,
        refuse: (_req, res) => refuseOversizedCall(res),
      },
      // Provider webhooks: read raw by their route (the signature covers the exact bytes).
      webhookBodyRule,
      // The profile photo form carries an image (server/domains/media/).
      photoBodyRule,
      // The deal page's forms with files: messages, the brief, a submission's screenshot (server/domains/deals/).
      dealUploadBodyRule,
      // The back office's sponsor directory import carries a CSV file (server/domains/sponsor-directory/).
      importBodyRule,
      // The public API answers an oversized body in its own JSON error shape (server/features/api/).
      apiBodyRule,
    ]),
  );
  app.use(guardTestRoutes({ enabled: config.ENABLE_TEST_ROUTES, secret: config.TEST_ROUTES_SECRET, trustsProxy: config.TRUST_PROXY !== false }));
  if (notificationStreams) {
    // Server-sent events, before compression: gzip would hold every event back until its buffer fills.
    app.get(NOTIFICATION_STREAM_PATH, notificationStreamHandler({ streams: notificationStreams, auth, logger }));
  }
  // One brotli quality for every response, whether compressed here or by entry.server.tsx.
  app.use(compression({ brotli: { params: BROTLI_PARAMS } }));
  // Exempt: provider webhooks, mail clients' one-click unsubscribe (RFC 8058), which is a signed link anyone may follow,
  // callable functions, whose router makes the same check and answers it in the functions protocol,
  // and the public API, which takes no cookie (a bearer key is no ambient authority another site could borrow).
  // A member's one-click "stop emails of posts" (RFC 8058) is a signed link too, under the member's own path:
  // the token, not the origin, is the permission, so neither this guard nor React Router's refuses it.
  app.use((req, _res, next) => {
    if (req.method === "POST" && MEMBER_MUTE_PATH.test(req.path)) {
      delete req.headers.origin;
      delete req.headers["sec-fetch-site"];
    }
    next();
  });
  app.use(refuseCrossSiteWrites([config.PUBLIC_ORIGIN], [WEBHOOK_PATH_PREFIX, UNSUBSCRIBE_PATH_PREFIX, FUNCTIONS_PATH_PREFIX, `${API_PATH_PREFIX}/`]));
  // React Router refuses an action whose Origin is another site's; a mail client's one-click POST
  // may carry one, and there the signed token, not the origin, is the permission (ADR 0025).
  app.use(UNSUBSCRIBE_PATH_PREFIX, (req, _res, next) => {
    if (req.method === "POST") delete req.headers.origin;
    next();
  });

  // Development: Vite serves the modules (and /@vite/client) the pages load.
  if (development) app.use(development.middlewares);
  // Fingerprinted build output never changes under the same name; brotli'd once at build time.
  app.use("/assets", precompressedAssets(`${clientDir}/assets`));
  app.use("/assets", express.static(`${clientDir}/assets`, { immutable: true, maxAge: "1y", index: false }));
  app.use(express.static(clientDir, { maxAge: "1h", index: false }));
  // Everything below may be personal: session-bound responses are never cached or sent in clear.
  app.use(personalisedResponses({ sessionCookiePrefix: SESSION_COOKIE_PREFIX }));
  // The back office (server/domains/staff/): never kept by any cache, never indexed, whatever a route sets.
  app.use(ADMIN_PATH, backOfficeResponses());

  // better-auth answers only the OAuth callback over HTTP; every other identity
  // flow runs through our own actions, which apply the rate limits.
  app.get("/api/auth/callback/:provider", toNodeHandler(auth));
  app.use(captchaRouter(captcha));
  // The public API (server/features/api/): keys, not sessions; JSON in and out.
  app.use(publicApi({ deps: { db, payments, config, logger, tagCatalogue, searchLog, sessionSecret, webhooks, mailer } }));
  const sessionLookup = { auth, db };
  app.use(
    functionsRouter({
      functions: { verifyRecaptcha: verifyRecaptchaFunction(captcha), ...paymentCallables({ db, payments, config }) },
      // The pages' own session lookup (from the database, a disabled account signed out), by the session cookie.
      resolveUser: (req) => getSessionUser(new Request(new URL(req.originalUrl, config.PUBLIC_ORIGIN), { headers: { cookie: req.headers.cookie ?? "" } }), sessionLookup),
      logger,
      // The router refuses other sites' pages itself, in the functions protocol (exempt from the plain guard above).
      allowedOrigins: [config.PUBLIC_ORIGIN],
    }),
  );

  // In development a component may change under the same data: every page is rendered afresh.
  const renderedDocuments = development ? neverKept : createRenderedDocuments();
  const loadContext: LoadContextOf = (req, res) => ({
    config,
    db,
    logger,
    metrics,
    auth,
    mailer,
    captcha,
    payments,
    sandbox,
    searchLog,
    viewCounter,
    tagCatalogue,
    photos,
    webhooks,
    tasks,
    renderedDocuments,
    sessionSecret,
    cspNonce: res.locals.cspNonce as string,
    clientIp: req.ip ?? req.socket.remoteAddress ?? "",
    requestId: String(req.id),
    charge: requestIds?.charge ?? (() => {}),
    sessionLookups: new Map(),
  });
  const pages = (getLoadContext: LoadContextOf) =>
    createRequestHandler({ build, mode: config.NODE_ENV === "production" ? "production" : "development", getLoadContext });
  // The end-to-end hooks exist only where enabled, past guardTestRoutes above (server/tools/test-hooks/).
  if (config.ENABLE_TEST_ROUTES) app.use(TEST_ROUTES_PATH, testHooksRouter({ ...services, pages, loadContext }));
  if (guestPages) app.use(guestPages.capture);
  app.all("/{*path}", pages(loadContext));

  app.use(finalErrorHandler(logger));
  return app;
}

/** Anything that escapes React Router: log it, answer 500 without details (503 while the database is away). */
function finalErrorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    if (isDatabaseUnavailable(error)) {
      logger.warn({ err: error, url: req.originalUrl }, "the database cannot be reached; answered 503");
      if (res.headersSent) return res.end();
      return res.status(OUTAGE_STATUS).set(OUTAGE_HEADERS).send(OUTAGE_HTML);
    }
    logger.error({ err: error, url: req.originalUrl }, "unhandled request error");
    if (res.headersSent) return res.end();
    const status = typeof error?.status === "number" && error.status >= 400 && error.status < 500 ? error.status : 500;
    res
      .status(status)
      .type("html")
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex">` +
          `<title>Something went wrong</title></head><body><main><h1>Something went wrong</h1>` +
          `<p>Please try again in a moment. <a href="/">Go to the home page</a>.</p></main></body></html>`,
      );
  };
}
