#!/usr/bin/env bash
# Twenty-sixth session: docs/results/alarm-levels-240-decision-rule.txt. Flown only for the level that rule chose on the
# val seeds: the shipped pair with the runaway alarm at LEVEL on the 300 test seeds (1..1999). Run after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
level="${1:?usage: alarm-level-test-s26.sh LEVEL (the level chosen by docs/results/alarm-levels-240-decision-rule.txt)}"
mkdir -p out
node bin/drone-harness.js eval --harness --scenario sim/scenarios/default.yaml --split test --flights 300 \
  --rows coevo_student_harness --coevo models/coevo/student-r2 --coevo-harness models/coevo/harness-gap \
  --region-clip 8 --runaway-level "$level" --workers 2 \
  > "docs/results/eval-alarm-level-$level-test-300.txt" 2> "out/alarm-level-$level-test-300.log"
