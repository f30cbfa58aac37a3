// Prints one closing line for the whole suite from the Vitest and Playwright JSON reports.
import fs from "node:fs";

const [unitFile, e2eFile] = process.argv.slice(2);
const unit = JSON.parse(fs.readFileSync(unitFile, "utf8"));
const e2e = JSON.parse(fs.readFileSync(e2eFile, "utf8")).stats;

const passed = unit.numPassedTests + e2e.expected;
const failed = unit.numFailedTests + e2e.unexpected + (e2e.flaky ?? 0);
const skipped = unit.numPendingTests + unit.numTodoTests + e2e.skipped;

console.log(`\nunit/integration: ${unit.numPassedTests} passed, ${unit.numFailedTests} failed`);
console.log(`end-to-end: ${e2e.expected} passed, ${e2e.unexpected} failed, ${e2e.skipped} skipped`);
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
