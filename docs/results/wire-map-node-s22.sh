#!/usr/bin/env bash
# The perception node's perception/wire_map on real photos (twenty-second session): the first 20
# urban dev photos as a camera bag at 5 Hz, played into launch/photos.launch.xml while
# /perception/wire_map is recorded; then the node's /diagnostics. Run from the repository root
# after `npm run build`. Output: docs/results/wire-map-node-s22.txt
set -u
T=$(mktemp -d)
mkdir "$T/photos"
for f in $(ls ../shared/fixtures/real/pld-dev/PLDU/*.jpg | sort -V | head -20); do ln -s "$(realpath "$f")" "$T/photos/$(basename "$f")"; done
date -u
node bin/drone-harness.js bag from-images "$T/photos" -o "$T/photos.bag" --rate 5
node bin/drone-harness.js launch launch/photos.launch.xml > "$T/launch.log" 2>&1 &
L=$!
sleep 8
node bin/drone-harness.js bag record -o "$T/maps" /perception/wire_map > "$T/rec.log" 2>&1 &
R=$!
sleep 3
node bin/drone-harness.js bag play "$T/photos.bag" 2>&1 | tail -1
sleep 2
timeout 5 node bin/drone-harness.js topic echo /diagnostics --once 2>&1 | grep -A1 -E "key: (frames|latency_p50_ms|wire_map)" | grep -v -- "^--"
kill -INT $R; wait $R
kill -INT $L; wait $L
tail -1 "$T/rec.log"
node bin/drone-harness.js bag info "$T/maps" | grep "Topic:"
rm -rf "$T"
