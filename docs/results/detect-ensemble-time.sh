#!/usr/bin/env bash
# Sixteenth session: detect's printed per-photo detector time with one network and with two (--partner), plain and
# with --tta flip, on the same 20 dev photos (10 PLDU then 10 PLDM, file-name order), one process per setting; the
# first photo of each run is start-up and left out of the median. Any second detector of the same architecture
# times the same as an adapted partner (the time depends on the architecture only); models/pipeline/student is used.
# Run from the repository root after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
for s in PLDU PLDM; do ls ../shared/fixtures/real/pld-dev/$s/*.jpg | sort | head -10; done > "$tmp/list"
run() {
  local label=$1; shift
  node bin/drone-harness.js detect "$@" $(cat "$tmp/list") --out "$tmp/out" > "$tmp/log"
  node -e '
const ms = require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n").slice(1).map((l) => Number(l.match(/, ([\d.]+) ms \(/)[1])).sort((a, b) => a - b);
const q = (p) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))];
console.log(`${process.argv[2].padEnd(40)} ${ms.length} photos: p50 ${q(0.5).toFixed(1)} ms, p90 ${q(0.9).toFixed(1)} ms`);' "$tmp/log" "$label"
}
date -u
run "one network (photo)" --model photo
run "two networks (photo + student)" --model photo --partner student
run "one network, --tta flip" --model photo --tta flip
run "two networks, --tta flip" --model photo --partner student --tta flip
uptime
rm -rf "$tmp"
