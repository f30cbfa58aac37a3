#!/usr/bin/env bash
# `npm test`: the whole suite. Type check, lint, unit and integration tests
# (PGlite, and PostgreSQL too when DATABASE_URL is set), build, then the
# Playwright end-to-end suite in Chromium against the built server (and, with
# DATABASE_URL, two server processes behind nginx).
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p reports

step() { printf '\n\033[1m== %s ==\033[0m\n' "$1"; }

step "Type check"
npm run --silent typecheck

step "Lint"
npm run --silent lint

step "Unit and integration tests (${DATABASE_URL:+PostgreSQL and }PGlite)"
npx vitest run --reporter=default --reporter=json --outputFile.json=reports/unit.json

step "Build"
npm run --silent build > reports/build.log 2>&1 || { cat reports/build.log; exit 1; }
tail -n 4 reports/build.log

step "End-to-end tests (Chromium)"
npx playwright test --project=chromium

e2e_reports=(reports/e2e.json)
if [ -n "${DATABASE_URL:-}" ]; then
  # Two app processes on one PostgreSQL behind nginx (ADR 0045), on their own after the suite.
  step "Two processes behind nginx (PostgreSQL)"
  E2E_REPORT=reports/e2e-cluster.json npx playwright test --project=cluster
  e2e_reports+=(reports/e2e-cluster.json)
fi

node scripts/summarise-test-results.mjs reports/unit.json "${e2e_reports[@]}"
