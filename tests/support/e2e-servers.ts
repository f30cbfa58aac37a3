import path from "node:path";
import { APP_ORIGIN, BIO_ORIGIN, E2E_DATA_DIR, E2E_PORT, E2E_PORTS } from "./e2e-ports";

/**
 * The two servers an end-to-end run talks to, described once: playwright.config.ts hands them to
 * Playwright as its webServer, and tests/support/start-e2e-servers.ts starts the very same ones
 * early, in the background, for Playwright to reuse (E2E_SERVERS_STARTED=1).
 * Each command ends in `exec`, so the process started is the server itself and its pid is the
 * one to stop.
 */
export type E2eServer = {
  name: string;
  /** A shell command, run in the repository's root. */
  command: string;
  /** Answers 200 once the server is ready. */
  url: string;
  /** How long it may take to start, in ms. */
  timeout: number;
  /** Added to the environment the command inherits. */
  env: Record<string, string>;
};

export const ROOT = path.resolve(import.meta.dirname, "../..");

export function e2eServers(testRoutesSecret: string): E2eServer[] {
  return [
    {
      // SMTP sink and the OpenID Connect provider standing in for Google.
      name: "test-services",
      command: "exec node --import tsx tests/support/test-services.ts",
      url: `http://127.0.0.1:${E2E_PORTS.control}/health`,
      timeout: 60_000,
      env: { E2E_PORT: String(E2E_PORT) },
    },
    {
      // The built server on a fresh embedded database: migrations and seed run from empty.
      name: "app",
      command: `rm -rf ${E2E_DATA_DIR} && exec node server.js`,
      url: `${APP_ORIGIN}/`,
      timeout: 120_000,
      env: {
        NODE_ENV: "production",
        PAYMENT_PROVIDER: "sandbox",
        PORT: String(E2E_PORT),
        PUBLIC_ORIGIN: APP_ORIGIN,
        BIO_ORIGIN,
        DATA_DIR: E2E_DATA_DIR,
        DATABASE_URL: "",
        ENABLE_TEST_ROUTES: "true",
        TEST_ROUTES_SECRET: testRoutesSecret,
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
  ];
}

/**
 * What start-e2e-servers.ts leaves for later, one set per port: the servers' pids (one a line,
 * each the leader of its own process group), the run's test-routes secret, which Playwright must
 * send to servers it did not start (tests/support/e2e-secret.ts reads it), and their stderr.
 */
export const STARTED_SERVERS_FILES = {
  pids: path.join(ROOT, `reports/e2e-servers-${E2E_PORT}.pids`),
  secret: path.join(ROOT, `reports/e2e-servers-${E2E_PORT}.secret`),
  log: path.join(ROOT, `reports/e2e-servers-${E2E_PORT}.log`),
};
