#!/usr/bin/env bash
# Twenty-sixth session: docs/results/alarm-0.9-test-pairing-plan.txt. OFF and ON (runaway alarm 0.9, the level chosen on
# val seeds) paired on the 300 test seeds (1..1999), for the McNemar test of the harness's own effect. Run after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
node bin/drone-harness.js eval --harness --scenario sim/scenarios/default.yaml --split test --flights 300 \
  --rows coevo_student_off,coevo_student_harness --coevo models/coevo/student-r2 --coevo-harness models/coevo/harness-gap \
  --region-clip 8 --runaway-level 0.9 --workers 2 \
  > docs/results/eval-alarm-level-0.9-test-300-paired.txt 2> out/alarm-0.9-test-pairing.log
