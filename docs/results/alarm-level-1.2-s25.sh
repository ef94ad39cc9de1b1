#!/usr/bin/env bash
# Twenty-fifth session: docs/results/alarm-level-1.2-decision-rule.txt. The shipped pair with the runtime's runaway alarm
# at 1.2 (SPEC's 0.6 doubled), on the 60 val seeds from 6000 at clip 8. Run after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
node bin/drone-harness.js eval --harness --scenario sim/scenarios/default.yaml --split val --first-seed 6000 --flights 60 \
  --rows coevo_student_harness --coevo models/coevo/student-r2 --coevo-harness models/coevo/harness-gap \
  --region-clip 8 --runaway-level 1.2 --workers 2 > docs/results/eval-alarm-level-1.2-val-60.txt 2> out/alarm-level-1.2-val.log
