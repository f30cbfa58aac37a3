// Prints one closing line for the whole suite from the Vitest and Playwright JSON reports.
import fs from "node:fs";

// Playwright may have run more than once (the cluster project runs on its own): their stats add up.
const [unitFile, ...e2eFiles] = process.argv.slice(2);
const unit = JSON.parse(fs.readFileSync(unitFile, "utf8"));
const e2e = { expected: 0, unexpected: 0, flaky: 0, skipped: 0 };
for (const file of e2eFiles) {
  const stats = JSON.parse(fs.readFileSync(file, "utf8")).stats;
  for (const key of Object.keys(e2e)) e2e[key] += stats[key] ?? 0;
}

const passed = unit.numPassedTests + e2e.expected;
const failed = unit.numFailedTests + e2e.unexpected + (e2e.flaky ?? 0);
const skipped = unit.numPendingTests + unit.numTodoTests + e2e.skipped;

console.log(`\nunit/integration: ${unit.numPassedTests} passed, ${unit.numFailedTests} failed`);
console.log(`end-to-end: ${e2e.expected} passed, ${e2e.unexpected} failed, ${e2e.skipped} skipped`);
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
