import { randomBytes } from "node:crypto";

/**
 * The TEST_ROUTES_SECRET of one end-to-end run. Made once by the runner when it reads
 * playwright.config.ts; its workers inherit the environment and so the same value.
 */
process.env.E2E_TEST_ROUTES_SECRET ??= randomBytes(24).toString("base64url");

export const E2E_TEST_ROUTES_SECRET = process.env.E2E_TEST_ROUTES_SECRET;
export const TEST_ROUTES_SECRET_HEADER = "X-Test-Routes-Secret";
