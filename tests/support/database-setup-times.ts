import fs from "node:fs";
import path from "node:path";
import { projectPath } from "#server/platform/paths";

/**
 * How long each test database took to make, one JSON line per database in reports/, so the run's
 * summary (scripts/summarise-test-results.mjs) can say what per-file setup costs on each engine.
 * The global setup (tests/support/vitest-global-setup.ts) starts the file afresh for each run.
 */
export const DATABASE_SETUP_TIMES = projectPath("reports/database-setup.jsonl");

export function recordDatabaseSetup(engine: string, ms: number, testFile: string | undefined): void {
  const file = testFile && path.relative(projectPath(), testFile);
  try {
    fs.appendFileSync(DATABASE_SETUP_TIMES, `${JSON.stringify({ engine, ms: Math.round(ms), file })}\n`);
  } catch {
    // A report is a nicety: a test never fails because reports/ cannot be written.
  }
}
