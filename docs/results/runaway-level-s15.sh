#!/usr/bin/env bash
# Fifteenth session: docs/results/runaway-level-rule.txt: the wire-gap harness at clip 8 with the runtime's runaway alarm
# at 0.6 (A) and without it (B), 60 val seeds from 6000. Run from the repository root after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
for level in 0.6 none; do
  node bin/drone-harness.js eval --harness --scenario sim/scenarios/default.yaml --split val --first-seed 6000 --flights 60 \
    --rows coevo_student_harness --coevo models/coevo/student-r2 --coevo-harness models/coevo/harness-gap \
    --region-clip 8 --runaway-level "$level" --workers 2 > "docs/results/eval-gap-clip8-alarm-$level-val-60.txt" 2> "out/gap-clip8-alarm-$level.log"
done
