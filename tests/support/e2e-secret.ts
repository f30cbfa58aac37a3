import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { STARTED_SERVERS_FILES } from "./e2e-servers";

/**
 * The TEST_ROUTES_SECRET of one end-to-end run. Made once by the runner when it reads
 * playwright.config.ts; its workers inherit the environment and so the same value. When the
 * servers were started beforehand (E2E_SERVERS_STARTED=1, tests/support/start-e2e-servers.ts),
 * it is theirs, read from the file that script wrote.
 */
function startedServersSecret(): string | undefined {
  if (process.env.E2E_SERVERS_STARTED !== "1") return undefined;
  try {
    return fs.readFileSync(STARTED_SERVERS_FILES.secret, "utf8").trim() || undefined;
  } catch {
    // Not started after all: Playwright starts them itself, with a secret of its own.
    return undefined;
  }
}

process.env.E2E_TEST_ROUTES_SECRET ??= startedServersSecret() ?? randomBytes(24).toString("base64url");

export const E2E_TEST_ROUTES_SECRET = process.env.E2E_TEST_ROUTES_SECRET;
export const TEST_ROUTES_SECRET_HEADER = "X-Test-Routes-Secret";
