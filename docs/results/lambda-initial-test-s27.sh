#!/usr/bin/env bash
# Twenty-seventh session: docs/results/lambda-initial-decision-rule.txt, the test flights if the start 0.01 passed on
# val: default 300 test seeds, urban 100, the validation family 100. Run after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
run() { # scenario flights output
  node bin/drone-harness.js eval --harness --scenario "$1" --split test --flights "$2" \
    --rows coevo_student_harness --coevo models/coevo/student-r2 --coevo-harness models/coevo/harness-gap \
    --region-clip 8 --lambda-initial 0.01 --workers 2 > "docs/results/$3" 2> "out/${3%.txt}.log"
}
run sim/scenarios/default.yaml 300 eval-lambda-initial-0.01-test-300.txt
run sim/scenarios/urban.yaml 100 eval-lambda-initial-0.01-urban-test-100.txt
run sim/scenarios/validation_lowlines.yaml 100 eval-lambda-initial-0.01-lowlines-test-100.txt
