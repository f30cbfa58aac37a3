#!/usr/bin/env bash
# `npm test`: the whole suite. Type check, lint, unit and integration tests
# (PGlite, and PostgreSQL too when DATABASE_URL is set), build, then the
# Playwright end-to-end suite in Chromium against the built server.
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
npx playwright test

node scripts/summarise-test-results.mjs reports/unit.json reports/e2e.json
