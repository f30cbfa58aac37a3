// Prints where the run's time went and one closing line for the whole suite, from the Vitest and
// Playwright JSON reports (kept in reports/ for the next person to read).
import fs from "node:fs";

const SLOWEST = 20;

// Playwright may have run more than once (the cluster project runs on its own): their stats add up.
const [unitFile, ...e2eFiles] = process.argv.slice(2);
const unit = JSON.parse(fs.readFileSync(unitFile, "utf8"));
const e2e = { expected: 0, unexpected: 0, flaky: 0, skipped: 0 };
const specTimes = new Map();
for (const file of e2eFiles) {
  const report = JSON.parse(fs.readFileSync(file, "utf8"));
  for (const key of Object.keys(e2e)) e2e[key] += report.stats[key] ?? 0;
  for (const suite of report.suites ?? []) addSpecTimes(suite, suite.file, specTimes);
}

/** A spec file's time: its tests' durations added up (they may run side by side on two workers). */
function addSpecTimes(suite, file, times) {
  for (const spec of suite.specs ?? []) {
    for (const test of spec.tests ?? []) {
      for (const result of test.results ?? []) times.set(file, (times.get(file) ?? 0) + (result.duration ?? 0));
    }
  }
  for (const child of suite.suites ?? []) addSpecTimes(child, file, times);
}

const seconds = (ms) => `${(ms / 1000).toFixed(1).padStart(6)} s`;
const relative = (name) => name.replace(`${process.cwd()}/`, "");

function printSlowest(title, entries) {
  console.log(`\n${title}`);
  for (const [name, ms] of entries.sort((a, b) => b[1] - a[1]).slice(0, SLOWEST)) console.log(`  ${seconds(ms)}  ${name}`);
}

printSlowest(
  `Slowest ${SLOWEST} Vitest files (from start to end of each file):`,
  unit.testResults.map((file) => [relative(file.name), file.endTime - file.startTime]),
);
if (specTimes.size > 0) printSlowest(`Slowest ${SLOWEST} Playwright specs (their tests' time added up):`, [...specTimes]);

// What a test database cost to make (tests/support/database-setup-times.ts).
const setupFile = "reports/database-setup.jsonl";
if (fs.existsSync(setupFile)) {
  const byEngine = new Map();
  for (const line of fs.readFileSync(setupFile, "utf8").split("\n").filter(Boolean)) {
    const { engine, ms } = JSON.parse(line);
    byEngine.set(engine, [...(byEngine.get(engine) ?? []), ms]);
  }
  console.log("\nTest database setup (from the migrated snapshot):");
  for (const [engine, times] of byEngine) {
    times.sort((a, b) => a - b);
    console.log(`  ${engine.padEnd(8)} ${times.length} databases, median ${times[Math.floor(times.length / 2)]} ms, max ${times.at(-1)} ms`);
  }
}

const passed = unit.numPassedTests + e2e.expected;
const failed = unit.numFailedTests + e2e.unexpected + (e2e.flaky ?? 0);
const skipped = unit.numPendingTests + unit.numTodoTests + e2e.skipped;

console.log(`\nunit/integration: ${unit.numPassedTests} passed, ${unit.numFailedTests} failed`);
console.log(`end-to-end: ${e2e.expected} passed, ${e2e.unexpected} failed, ${e2e.skipped} skipped`);
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
