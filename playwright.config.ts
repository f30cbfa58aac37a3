import { defineConfig, devices } from "@playwright/test";
import { E2E_PORTS } from "./tests/support/e2e-ports";
import { E2E_TEST_ROUTES_SECRET, TEST_ROUTES_SECRET_HEADER } from "./tests/support/e2e-secret";

const PORT = Number(process.env.E2E_PORT ?? 3100);
export const E2E_DATA_DIR = ".e2e-data";

// Debian's Chromium, never a downloaded browser (DESIGN §6).
export const chromiumLaunchOptions = {
  executablePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
  args: [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
  ],
};

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: [["list"], ["json", { outputFile: process.env.E2E_REPORT ?? "reports/e2e.json" }]],
  timeout: 60_000,
  // Sign-up solves a proof-of-work captcha in the browser; on two busy cores that can take seconds.
  expect: { timeout: 15_000 },
  use: {
    baseURL: `http://localhost:${PORT}`,
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
  webServer: [
    {
      // SMTP sink and the OpenID Connect provider standing in for Google.
      command: "npx tsx tests/support/test-services.ts",
      url: `http://127.0.0.1:${E2E_PORTS.control}/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: "ignore",
    },
    {
      // The built server on a fresh embedded database: migrations and seed run from empty.
      command: `rm -rf ${E2E_DATA_DIR} && node server.js`,
      url: `http://localhost:${PORT}/`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: "ignore",
      stderr: "pipe",
      env: {
        NODE_ENV: "production",
        PAYMENT_PROVIDER: "sandbox",
        PORT: String(PORT),
        DATA_DIR: E2E_DATA_DIR,
        DATABASE_URL: "",
        ENABLE_TEST_ROUTES: "true",
        TEST_ROUTES_SECRET: E2E_TEST_ROUTES_SECRET,
        LOG_LEVEL: "warn",
        SUPPORT_EMAIL: "help@sponsorgrid.example",
        // Behind one trusted proxy hop (the test itself): each test picks its own client address
        // in X-Forwarded-For (tests/e2e/fixtures.ts).
        TRUST_PROXY: "1",
        SMTP_URL: `smtp://127.0.0.1:${E2E_PORTS.smtp}`,
        GOOGLE_CLIENT_ID: "sponsorgrid-e2e",
        GOOGLE_CLIENT_SECRET: "e2e-client-secret",
        GOOGLE_DISCOVERY_URL: `http://127.0.0.1:${E2E_PORTS.oidc}/.well-known/openid-configuration`,
        ALTCHA_MAX_NUMBER: "1000",
        // Webhook receivers in the specs listen on loopback.
        WEBHOOK_PRIVATE_TARGETS: "allow",
        // One site's pages may call the API from a browser (tests/e2e/api-cors.spec.ts); another's may not.
        API_CORS_ORIGINS: `http://127.0.0.1:${E2E_PORTS.corsAllowedSite}`,
      },
    },
  ],
});
