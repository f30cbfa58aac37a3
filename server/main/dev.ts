// `npm run dev`: the production server (server/main/lifecycle.ts) with Vite in middleware mode.
//
// Everything — our server code and the React Router build — is loaded through Vite's SSR module
// graph, as the production bundle holds them in one graph (vite.config.ts): one copy of every
// module, so the routes and the server share the same database handle and per-database state.
// Routes and components update in the browser by HMR; the build is loaded afresh per request.
//
// An edit under server/ restarts this whole process (`node --watch-path=server`, package.json): a
// fresh process is the one way a server edit cannot leave two versions of a module side by side,
// and shutdown stays the production one (Node waits for it: the embedded database is checkpointed
// and its lock released). Node watches only that folder, never the files Vite writes and deletes.
//
// Vite's HMR socket is served by our own HTTP server, on the page's origin: the CSP's
// `connect-src 'self'` already allows it (no development-only relaxation).
import fs from "node:fs";
import http from "node:http";
import { fileURLToPath } from "node:url";
import type { RequestHandler } from "express";
import type { ServerBuild } from "react-router";
import { createServer } from "vite";
import type { startServer as StartServer } from "./lifecycle";

if (fs.existsSync(".env")) process.loadEnvFile(".env");
// Before Vite starts: React and the JSX transform pick their development builds from it.
process.env.NODE_ENV = "development";

// Vite listens for WebSocket upgrades here; our server hands them over once it is up.
const hmrUpgrades = http.createServer();
const vite = await createServer({
  appType: "custom",
  server: { middlewareMode: true, ws: { server: hmrUpgrades } },
});
// React Router's plugin starts a second Vite server (its child compiler) outside middleware mode,
// and Vite gives such a server a SIGTERM handler that exits at once. The production shutdown below
// owns the signal, so that the embedded database is closed before the process ends.
process.removeAllListeners("SIGTERM");
process.stdin.removeAllListeners("end");

const { startServer } = (await vite.ssrLoadModule("/server/main/lifecycle.ts")) as { startServer: typeof StartServer };
try {
  const { server } = await startServer({
    build: () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>,
    clientDir: fileURLToPath(new URL("../../public", import.meta.url)),
    // Kept pages would outlive an edit to their components.
    env: { ...process.env, GUEST_PAGE_CACHE: "off" },
    development: { middlewares: vite.middlewares as unknown as RequestHandler },
  });
  server.on("upgrade", (request, socket, head) => hmrUpgrades.emit("upgrade", request, socket, head));
  // The HMR socket is an upgraded connection: the drain neither sees it idle nor closes it, so the
  // old process would wait for it (a minute and more) before a server edit's restart. Closing it
  // at once also tells the open tab to wait for the new server and reload.
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void vite.ws.close());
} catch (error) {
  console.error("Cannot start the development server:", error instanceof Error ? error.message : error);
  await vite.close();
  process.exit(1);
}
