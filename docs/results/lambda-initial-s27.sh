#!/usr/bin/env bash
# Twenty-seventh session: docs/results/lambda-initial-decision-rule.txt. The shipped pair with the lambda schedule
# started at its floor (0.01) on the two families' val seeds. Run after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
run() { # scenario first-seed flights output
  node bin/drone-harness.js eval --harness --scenario "$1" --split val --first-seed "$2" --flights "$3" \
    --rows coevo_student_harness --coevo models/coevo/student-r2 --coevo-harness models/coevo/harness-gap \
    --region-clip 8 --lambda-initial 0.01 --workers 2 > "docs/results/$4" 2> "out/${4%.txt}.log"
}
run sim/scenarios/urban.yaml 10000 120 eval-lambda-initial-0.01-urban-val-120-from-10000.txt
run sim/scenarios/default.yaml 8000 240 eval-lambda-initial-0.01-val-240-from-8000.txt
