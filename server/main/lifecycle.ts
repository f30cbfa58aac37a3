import type { Server } from "node:http";
import type { ServerBuild } from "react-router";
import http from "node:http";
import { loadConfig } from "#server/config";
import { createHttpApp, type DevelopmentServer } from "./app";
import { appPhotoListener } from "#server/media/http";
import { startServices } from "./composition-root";
import { listen } from "#server/http/listen";
import { createLogger } from "#server/http/logging";
import { createRequestIds, withRequestIds } from "#server/http/request-id";
import { compileTrust } from "#server/http/forwarding";

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
  const running = await startServices(config, logger);
  const { services } = running;
  const { guestPages, bioHost, notificationStreams, photos } = services;
  const app = createHttpApp({ build, clientDir, services, requestIds, development });
  // The bio host, profile photos and guest pages kept in memory are answered before Express (server/bio/host/, server/media/, server/page-cache/).
  const appListener: http.RequestListener = guestPages ? (req, res) => guestPages.handle(req, res, () => app(req, res)) : app;
  const appPhotos = appPhotoListener(photos.server, (error) => logger.error({ err: error }, "photo could not be read"));
  // Every request gets its id first, whichever handler answers it (server/http/request-id.ts).
  const server: Server = http.createServer(withRequestIds(requestIds, compileTrust(config.TRUST_PROXY), (req, res) => (bioHost.handles(req) ? bioHost.handle(req, res) : appPhotos(req, res) || appListener(req, res))));

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
