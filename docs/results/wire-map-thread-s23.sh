#!/usr/bin/env bash
# The perception node's perception/wire_map made on a worker thread (wire_map_thread:=true, the
# default since the twenty-third session) against in the camera callback (false): the first N
# urban dev photos (default 20) as a camera bag at RATE Hz (default 20: faster than detection +
# map in one thread), played into launch/photos.launch.xml in each mode while the detections and the maps are
# recorded with the camera frames; then the node's /diagnostics and each output's delay from its
# frame (docs/results/bag-delays.js). Run from the repository root after `npm run build`.
# Output: docs/results/wire-map-thread-s23.txt
set -u
RATE=${1:-20}
N=${2:-20}
T=$(mktemp -d)
mkdir "$T/photos"
for f in $(ls ../shared/fixtures/real/pld-dev/PLDU/*.jpg | sort -V | head -"$N"); do ln -s "$(realpath "$f")" "$T/photos/$(basename "$f")"; done
date -u
uptime
node bin/drone-harness.js bag from-images "$T/photos" -o "$T/photos.bag" --rate "$RATE"
for thread in true false; do
  echo "== wire_map_thread:=$thread, $RATE Hz"
  node bin/drone-harness.js launch launch/photos.launch.xml wire_map_thread:=$thread > "$T/launch-$thread.log" 2>&1 &
  L=$!
  sleep 8
  node bin/drone-harness.js bag record -o "$T/out-$thread" /camera/image_raw /harness/obstacles_raw /perception/wire_map > "$T/rec.log" 2>&1 &
  R=$!
  sleep 3
  node bin/drone-harness.js bag play "$T/photos.bag" 2>&1 | tail -1
  sleep 3
  timeout 5 node bin/drone-harness.js topic echo /diagnostics --once 2>&1 | grep -A1 -E "key: (frames|latency_p50_ms|wire_map.*)$" | grep -v -- "^--"
  kill -INT $R; wait $R
  kill -INT $L; wait $L
  node docs/results/bag-delays.js "$T/out-$thread" /harness/obstacles_raw /perception/wire_map
done
date -u
rm -rf "$T"
