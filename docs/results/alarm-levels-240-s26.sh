#!/usr/bin/env bash
# Twenty-sixth session: docs/results/alarm-levels-240-decision-rule.txt. The shipped pair with the runtime's runaway alarm
# at 0.9 and at 1.2 on the 240 val seeds from 8000 (the decision set of the twenty-fifth session). Run after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
for level in 0.9 1.2; do
  node bin/drone-harness.js eval --harness --scenario sim/scenarios/default.yaml --split val --first-seed 8000 --flights 240 \
    --rows coevo_student_harness --coevo models/coevo/student-r2 --coevo-harness models/coevo/harness-gap \
    --region-clip 8 --runaway-level "$level" --workers 2 \
    > "docs/results/eval-alarm-level-$level-val-240-from-8000.txt" 2> "out/alarm-level-$level-val-240.log"
done
