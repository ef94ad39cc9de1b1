#!/usr/bin/env bash
# Thirty-fourth session, diagnostic on validation seeds only: where do the timeouts the vertical commitment adds come
# from? Urban val 120 (from 10000), the nodes' pair with 0.3,12,each and without the option, JSON with every decision's
# trace (goal_m, turned); summarised by docs/results/commit-hang-summary.js.
#   bash docs/results/commit-hang-s34.sh        (after npm run build; ~20 min on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
run() { # output-stem [more eval flags]
  node bin/drone-harness.js eval --harness --scenario sim/scenarios/urban.yaml --split val --first-seed 10000 --flights 120 \
    --rows coevo_student_harness --coevo models/coevo/student-r2 --coevo-harness models/coevo/harness-gap \
    --region-clip 8 --workers 2 --json "${@:2}" > "out/$1.json" 2> "out/$1.log"
}
run hang-0.3,12,each-urban-val --vertical-commit 0.3,12,each
run hang-no-option-urban-val
node docs/results/commit-hang-summary.js out/hang-0.3,12,each-urban-val.json out/hang-no-option-urban-val.json > docs/results/commit-hang-urban-val-120.txt
echo done
