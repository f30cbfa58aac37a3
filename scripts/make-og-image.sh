#!/usr/bin/env bash
# Renders scripts/og-image.html to public/og-default.png (the default share image).
set -euo pipefail
cd "$(dirname "$0")/.."
"${CHROME_PATH:-/usr/bin/chromium}" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync --hide-scrollbars \
  --window-size=1200,630 --screenshot="$PWD/public/og-default.png" "file://$PWD/scripts/og-image.html"
