import type { Server } from "node:http";
import type { ServerBuild } from "react-router";
import http from "node:http";
import { loadConfig } from "#server/platform/config";
import { createHttpApp, type DevelopmentServer } from "./app";
import { appPhotoListener } from "#server/domains/media/http";
import { startServices } from "./composition-root";
import { listen } from "#server/platform/http/listen";
import { createLogger, logFastPath } from "#server/platform/http/logging";
import { createRequestIds, withRequestIds } from "#server/platform/http/request-id";
import { compileTrust } from "#server/platform/http/forwarding";
import { metricsEndpoint, pathOf, timeRequest } from "#server/platform/metrics/http";
import { routePatterns } from "#server/platform/metrics/route-patterns";
import { apiRoutePatterns } from "#server/features/api/route-patterns";
import { API_OPERATIONS } from "#server/features/api/operations/index";
import { API_PATH_PREFIX } from "#server/features/api/operation";

type StartOptions = {
  build: ServerBuild | (() => Promise<ServerBuild>);
  clientDir: string;
  env?: Record<string, string | undefined>;
  /** Only `npm run dev` (server/main/dev.ts). */
  development?: DevelopmentServer;
};

/**
 * Boots one app process: config, then every service (server/main/composition-root.ts: lock
 * for the embedded database, database, migrations, seed, workers), then HTTP. SIGINT/SIGTERM
 * stop intake, drain, and close the services in reverse order (the database checkpointed last).
 */
export async function startServer({ build, clientDir, env = process.env, development }: StartOptions) {
  const config = loadConfig(env);
  const requestIds = createRequestIds();
  const logger = createLogger(config.LOG_LEVEL, requestIds);
  const running = await startServices(config, logger, requestIds);
  const { services } = running;
  const { guestPages, bioHost, notificationStreams, photos, probes, metrics } = services;
  const app = createHttpApp({ build, clientDir, services, requestIds, development });
  // Express's requests are named by the React Router route that answers them, never by their address.
  const patternsOf = new WeakMap<ServerBuild, (path: string) => string>();
  const apiRouteOf = apiRoutePatterns(API_OPERATIONS);
  const routeOf = async (path: string) => {
    if (path.startsWith(`${API_PATH_PREFIX}/`)) return apiRouteOf(path);
    const current = typeof build === "function" ? await build() : build;
    let patterns = patternsOf.get(current);
    if (!patterns) patternsOf.set(current, (patterns = routePatterns(current)));
    return patterns(path);
  };
  const appPhotos = appPhotoListener(photos.server, (error) => logger.error({ err: error }, "photo could not be read"));
  const scrape = metricsEndpoint({ registry: metrics.registry, token: config.METRICS_TOKEN });
  // Every request but a probe gets its id first, whichever handler answers it (server/platform/http/request-id.ts).
  // Then the bio host, the metrics scrape, profile photos and guest pages kept in memory, before Express
  // (server/domains/bio/host/, server/platform/metrics/, server/domains/media/, server/platform/page-cache/).
  const logFast = config.LOG_FAST_PATHS === "on";
  const answer = withRequestIds(requestIds, compileTrust(config.TRUST_PROXY), (req, res) => {
    if (bioHost.handles(req)) {
      timeRequest(metrics, req, res, () => "bio host");
      if (logFast) logFastPath(logger, req, res, () => "bio host");
      return bioHost.handle(req, res);
    }
    if (scrape(req, res)) return;
    let route: () => string | Promise<string> = () => "photo";
    let inExpress = false;
    timeRequest(metrics, req, res, () => route());
    if (logFast) logFastPath(logger, req, res, () => String(route()), () => !inExpress);
    if (appPhotos(req, res)) return;
    const toExpress = () => {
      const path = pathOf(req.url);
      route = () => routeOf(path);
      inExpress = true;
      app(req, res);
    };
    if (!guestPages) return toExpress();
    route = () => "guest page";
    guestPages.handle(req, res, toExpress);
  });
  // Probes come first of all, on either host: never cached, rate limited or logged.
  const server: Server = http.createServer((req, res) => {
    if (probes.handle(req, res)) return;
    answer(req, res);
  });
  // A balancer keeps idle connections to us open for 60 s (nginx's upstream keepalive_timeout):
  // Node's own 5 s would close them under it, and a POST sent on one just closed fails with 502.
  // So we keep them longer than any balancer, and wait for headers a little longer still (Node's rule).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;

  let stopping: Promise<void> | null = null;
  const stop = (reason: string, { grace = true } = {}) => {
    stopping ??= (async () => {
      // Out of the balancer first: /readyz says 503 while requests are still served, then intake stops.
      probes.shuttingDown();
      if (grace && config.SHUTDOWN_GRACE_MS > 0) {
        logger.info({ reason, graceMs: config.SHUTDOWN_GRACE_MS }, "shutting down: not ready any more; still serving for the grace period");
        await new Promise((resolve) => setTimeout(resolve, config.SHUTDOWN_GRACE_MS));
      }
      logger.info({ reason }, "shutting down: no new requests");
      // Refuse new connections, let in-flight requests finish, drop idle keep-alives.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Event streams never finish by themselves: end them, and their browsers reconnect elsewhere.
      notificationStreams.closeAll();
      server.closeIdleConnections();
      // The streams' connections turn idle once their last bytes are out.
      setImmediate(() => server.closeIdleConnections());
      const forced = setTimeout(() => server.closeAllConnections(), 10_000);
      await closed;
      clearTimeout(forced);
      // Workers stop, whatever waits in memory (searches, views, a mail under way, sandbox events) is written, the database closes.
      await running.close();
      logger.info("database closed; bye");
    })();
    return stopping;
  };

  try {
    await listen(server, config.PORT, config.HOST);
  } catch (error) {
    // Nothing was served: close what started (the database is checkpointed, its lock released).
    await stop(`could not listen on port ${config.PORT}`, { grace: false });
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
