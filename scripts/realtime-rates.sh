#!/usr/bin/env bash
# Issue 15: real-time launch/sim.launch.xml: camera and /cmd_vel wall-clock rates per layout.
cd "$(dirname "$0")/.." && mkdir -p out/logs
for layout in "embedded" "dds-one" "dds-multi"; do
  case $layout in
    embedded) args="";;
    dds-one) args="--middleware dds --one-process";;
    dds-multi) args="--middleware dds";;
  esac
  echo "== $layout: drone-harness launch launch/sim.launch.xml $args  (load $(cut -d' ' -f1 /proc/loadavg))"
  node bin/drone-harness.js launch launch/sim.launch.xml $args > out/logs/rates-$layout.log 2>&1 &
  pid=$!
  sleep 12
  timeout 11 node bin/drone-harness.js topic hz /camera/image_raw 2>&1 | grep "average rate" | tail -1
  timeout 9 node bin/drone-harness.js topic hz /cmd_vel 2>&1 | grep "average rate" | tail -1
  grep -m2 "behind real time" out/logs/rates-$layout.log
  kill -INT $pid; sleep 3; kill -9 $pid 2>/dev/null; pkill -f "launch/sim.launch.xml.*--only-node" 2>/dev/null; sleep 2
done
