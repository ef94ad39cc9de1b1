#!/usr/bin/env bash
# Thirteenth session: the test flights of docs/results/linefill-decision-rule.txt (gain 2 qualified on
# the val seeds: 2 + 1 collisions of 120 against OFF's 6 + 10).
set -euo pipefail
cd "$(dirname "$0")/../.."
node bin/drone-harness.js eval --harness --scenario sim/scenarios/default.yaml --split test --flights 100 \
  --rows coevo_student_off,coevo_student_linefill2 --coevo models/coevo/student-r2 --coevo-harness models/coevo/harness-r2 \
  --region-clip 2 --workers 2 > docs/results/eval-linefill2-r2-test-100.txt 2> out/linefill-test-s13.log
