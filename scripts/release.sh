#!/usr/bin/env bash
# Builds a release into OUT_DIR: what `node server.js` needs at run time and nothing else.
#   scripts/release.sh OUT_DIR
# The Dockerfile runs this script and CI tests its output (tests/unit/release.test.ts), so the
# image and CI run the same thing (docs/decisions/0043-one-release-script.md).
#
# It works on a copy of the sources, never on this folder's node_modules or build: `npm ci`
# (every dependency: the build needs the dev ones), `npm run build`, `npm prune --omit=dev`,
# then it copies into OUT_DIR:
#   server.js, package.json      the entry, and the root the server finds its folders from
#   build/                       the server bundle (content/ is inside it) and the browser files
#   node_modules/                production dependencies only (sharp's binary, fonts, icons, PGlite)
#   server/**/migrations/        each chain's SQL and meta/_journal.json, read at start
# npm uses its cache first (--prefer-offline) and the npm registry for anything missing.
set -euo pipefail

if [ $# -ne 1 ] || [ -z "$1" ]; then
  echo "usage: scripts/release.sh OUT_DIR" >&2
  exit 2
fi

source_dir="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p "$1"
out="$(cd "$1" && pwd)"
case "$out/" in
  "$source_dir"/*)
    echo "release: OUT_DIR must be outside the source folder ($source_dir)" >&2
    exit 2
    ;;
esac
if [ -n "$(ls -A "$out")" ]; then
  echo "release: OUT_DIR ($out) must be empty" >&2
  exit 2
fi

stage="$(mktemp -d "${TMPDIR:-/tmp}/sponsorgrid-release.XXXXXX")"
trap 'rm -rf "$stage"' EXIT

step() { printf 'release: %s\n' "$1"; }

step "copying the sources to $stage"
# Whatever the build cannot need: installed or built things, data, tests, docs, secrets.
tar -C "$source_dir" -cf - \
  --exclude=./node_modules --exclude=./build --exclude=./.react-router --exclude=./.git \
  --exclude=./data --exclude='./.e2e-data*' --exclude=./reports --exclude=./test-results \
  --exclude=./playwright-report --exclude=./tests --exclude=./bench --exclude=./docs \
  --exclude=./tmp --exclude='./.env' --exclude='./.env.*' . \
  | tar -C "$stage" -xf -

cd "$stage"
step "npm ci"
npm ci --prefer-offline --no-audit --no-fund --loglevel=error
step "npm run build"
npm run --silent build > build.log 2>&1 || { cat build.log; exit 1; }
step "npm prune --omit=dev"
npm prune --omit=dev --prefer-offline --no-audit --no-fund --loglevel=error

step "assembling $out"
cp server.js package.json "$out/"
mv build node_modules "$out/"
# Each migration chain's SQL and journal (drizzle's migrator reads only these; the snapshots are for drizzle-kit).
while IFS= read -r chain; do
  mkdir -p "$out/$chain/meta"
  cp "$chain"/*.sql "$out/$chain/"
  cp "$chain/meta/_journal.json" "$out/$chain/meta/"
done < <(find server -type d -name migrations -not -path '*/node_modules/*' | sort)

step "done: $(du -sh "$out" | cut -f1) in $out"
