#!/usr/bin/env bash
# `npm test`: the whole suite. Type check, lint and build at once; the unit and integration tests
# (PGlite, and PostgreSQL too when DATABASE_URL is set) while the end-to-end servers boot; then the
# Playwright suite in Chromium against the built server (and, with DATABASE_URL, two server
# processes behind nginx); then where the time went. Reports stay in reports/.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p reports

step() { printf '\n\033[1m== %s ==\033[0m\n' "$1"; }
started=$SECONDS
elapsed() { printf '(%d s into the run)\n' $((SECONDS - started)); }

# Each runs on a core of its own; their output is shown whole if one fails. Lint and the type
# check keep caches in node_modules/.cache, so a second run checks only what changed.
step "Type check, lint and build, at once"
npm run --silent typecheck > reports/typecheck.log 2>&1 & typecheck=$!
npm run --silent lint > reports/lint.log 2>&1 & lint=$!
npm run --silent build > reports/build.log 2>&1 & build=$!
failed=""
wait $typecheck || failed+=" typecheck"
wait $lint || failed+=" lint"
wait $build || failed+=" build"
if [ -n "$failed" ]; then
  for name in $failed; do printf '\n-- %s --\n' "$name"; cat "reports/$name.log"; done
  echo "Failed:$failed"
  exit 1
fi
tail -n 4 reports/build.log
elapsed

# The end-to-end servers (test services, the built server on a fresh embedded database) boot while
# the unit tests run, and are stopped however this script ends.
npx tsx tests/support/start-e2e-servers.ts
trap 'npx tsx tests/support/stop-e2e-servers.ts || true' EXIT

step "Unit and integration tests (${DATABASE_URL:+PostgreSQL and }PGlite)"
npx vitest run --reporter=default --reporter=json --outputFile.json=reports/unit.json
elapsed

step "End-to-end tests (Chromium)"
npx tsx tests/support/wait-e2e-servers.ts
# The report's name follows E2E_PORT as playwright.config.ts names it (runs side by side keep apart).
e2e_report=reports/e2e.json
if [ "${E2E_PORT:-3100}" != 3100 ]; then e2e_report="reports/e2e-${E2E_PORT}.json"; fi
E2E_SERVERS_STARTED=1 E2E_REPORT="$e2e_report" npx playwright test --project=chromium
elapsed

e2e_reports=("$e2e_report")
if [ -n "${DATABASE_URL:-}" ]; then
  # Two app processes on one PostgreSQL behind nginx (ADR 0045), on their own after the suite.
  step "Two processes behind nginx (PostgreSQL)"
  # It starts its own app processes but mails through the test services already running: reuse
  # them (a second start would find their ports taken).
  E2E_SERVERS_STARTED=1 E2E_REPORT="${e2e_report%.json}-cluster.json" npx playwright test --project=cluster
  e2e_reports+=("${e2e_report%.json}-cluster.json")
  elapsed
fi

node scripts/summarise-test-results.mjs reports/unit.json "${e2e_reports[@]}"
