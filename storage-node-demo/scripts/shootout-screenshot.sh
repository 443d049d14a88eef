#!/usr/bin/env bash
# Renders a shootout report's index.html in headless Chromium (Debian's chromium package, installed here if
# missing) and writes screenshot.png beside it, so a broken chart or layout is seen, not assumed.
#   storage-node-demo/scripts/shootout-screenshot.sh REPORT_DIR [WIDTH HEIGHT]
set -euo pipefail
dir="${1:?usage: $0 REPORT_DIR [WIDTH HEIGHT]}"
width="${2:-1100}"
height="${3:-2300}"
[ -f "$dir/index.html" ] || { echo "no index.html in $dir" >&2; exit 2; }
if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "chromium is not installed; run as root or: apt-get install -y chromium" >&2
    exit 2
  fi
  timeout 600 apt-get update -qq
  DEBIAN_FRONTEND=noninteractive timeout 900 apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core
fi
profile="$(mktemp -d)"
trap 'rm -rf "$profile"' EXIT
# Background networking off: this machine's network is closed, and Chromium would keep trying.
timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync --hide-scrollbars \
  --user-data-dir="$profile" --window-size="$width,$height" \
  --screenshot="$(cd "$dir" && pwd)/screenshot.png" "file://$(cd "$dir" && pwd)/index.html" 2>/dev/null
echo "wrote $dir/screenshot.png"
