#!/usr/bin/env bash
# Twenty-sixth session: docs/results/alarm-0.9-lowlines-plan.txt. The shipped pair with the runaway alarm at 0.9 (chosen on
# default-family val seeds) on the validation family, OFF beside it, 100 test seeds. Run after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
node bin/drone-harness.js eval --harness --scenario sim/scenarios/validation_lowlines.yaml --split test --flights 100 \
  --rows coevo_student_off,coevo_student_harness --coevo models/coevo/student-r2 --coevo-harness models/coevo/harness-gap \
  --region-clip 8 --runaway-level 0.9 --workers 2 --attribute-strikes > docs/results/eval-alarm-level-0.9-lowlines-test-100.txt 2> out/alarm-0.9-lowlines.log
