import { defineConfig, devices } from "@playwright/test";
import { APP_ORIGIN, E2E_PORT } from "./tests/support/e2e-ports";
import { E2E_TEST_ROUTES_SECRET, TEST_ROUTES_SECRET_HEADER } from "./tests/support/e2e-secret";
import { e2eServers } from "./tests/support/e2e-servers";

// Debian's Chromium, never a downloaded browser (DESIGN §6).
export const chromiumLaunchOptions = {
  executablePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
  args: [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
  ],
};

/**
 * E2E_PORT (default 3100) sets every port and the data folder of a run (tests/support/e2e-ports.ts),
 * so runs with bases 100 apart can share a machine.
 * E2E_SERVERS_STARTED=1: the servers were started beforehand by tests/support/start-e2e-servers.ts
 * (for instance while the unit tests ran) and are reused, their secret read from the file it wrote;
 * otherwise Playwright starts them and refuses to run if something already listens on their ports.
 */
const reuseStartedServers = process.env.E2E_SERVERS_STARTED === "1";

// A run's traces and report are its own too: each run empties its output folder as it starts, so a
// shared one would lose the other run's traces. The default port keeps the usual report name.
const outputDir = `test-results/e2e-${E2E_PORT}`;
const report = process.env.E2E_REPORT ?? (E2E_PORT === 3100 ? "reports/e2e.json" : `reports/e2e-${E2E_PORT}.json`);

export default defineConfig({
  testDir: "tests/e2e",
  outputDir,
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: [["list"], ["json", { outputFile: report }]],
  timeout: 60_000,
  // Sign-up solves a proof-of-work captcha in the browser; on two busy cores that can take seconds.
  expect: { timeout: 15_000 },
  use: {
    baseURL: APP_ORIGIN,
    launchOptions: chromiumLaunchOptions,
    trace: "retain-on-failure",
    // Opens /__test/* (tests/e2e/fixtures.ts sends it too, next to each test's client address).
    extraHTTPHeaders: { [TEST_ROUTES_SECRET_HEADER]: E2E_TEST_ROUTES_SECRET },
  },
  projects: [
    { name: "chromium", testIgnore: /cluster\.spec\.ts$/, use: { ...devices["Desktop Chrome"], launchOptions: chromiumLaunchOptions } },
    // Two app processes on one PostgreSQL behind nginx (ADR 0045): only where DATABASE_URL names a
    // server, as the PostgreSQL runs of the unit tests; scripts/run-all-tests.sh runs it on its own.
    ...(process.env.DATABASE_URL
      ? [{ name: "cluster", testMatch: /cluster\.spec\.ts$/, use: { ...devices["Desktop Chrome"], launchOptions: chromiumLaunchOptions } }]
      : []),
  ],
  // The test services, then the built server on a fresh embedded database (tests/support/e2e-servers.ts).
  webServer: e2eServers(E2E_TEST_ROUTES_SECRET).map((server) => ({
    command: server.command,
    url: server.url,
    env: server.env,
    timeout: server.timeout,
    reuseExistingServer: reuseStartedServers,
    stdout: "ignore" as const,
    stderr: "pipe" as const,
  })),
});
