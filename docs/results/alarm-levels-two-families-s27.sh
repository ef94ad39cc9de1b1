#!/usr/bin/env bash
# Twenty-seventh session: docs/results/alarm-levels-two-families-decision-rule.txt. The shipped pair with the runaway
# alarm at 0.75 on the default family's 240 val seeds from 8000, and at 0.6, 0.75 and 0.9 on urban's 120 val seeds from
# 10000. Run after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
run() { # scenario first-seed flights level output
  node bin/drone-harness.js eval --harness --scenario "$1" --split val --first-seed "$2" --flights "$3" \
    --rows coevo_student_harness --coevo models/coevo/student-r2 --coevo-harness models/coevo/harness-gap \
    --region-clip 8 --runaway-level "$4" --workers 2 > "docs/results/$5" 2> "out/${5%.txt}.log"
}
run sim/scenarios/urban.yaml 10000 120 0.6 eval-alarm-level-0.6-urban-val-120-from-10000.txt
run sim/scenarios/urban.yaml 10000 120 0.75 eval-alarm-level-0.75-urban-val-120-from-10000.txt
run sim/scenarios/urban.yaml 10000 120 0.9 eval-alarm-level-0.9-urban-val-120-from-10000.txt
run sim/scenarios/default.yaml 8000 240 0.75 eval-alarm-level-0.75-val-240-from-8000.txt
