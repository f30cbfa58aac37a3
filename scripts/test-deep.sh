#!/usr/bin/env bash
# `npm run test:deep`: every heavy property at its full count (tests/support/property-runs.ts) —
# 1,000 event sequences per engine for the payment intake and reconciliation — on PGlite, and on
# PostgreSQL too when DATABASE_URL is set. Run it before resolving any change that touches money,
# webhooks or the ledger. File names given run only those files.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(grep -rlE --include='*.test.ts' '#tests/support/property-runs"' server app isomorphic page-kit tests/unit | sort)
if [ $# -gt 0 ]; then files=("$@"); fi
TEST_DEPTH=deep npx vitest run "${files[@]}"
