#!/usr/bin/env bash
# Twenty-fourth session: docs/results/gap-oracle-test-plan.txt: the wire-gap harness's correction with a perfect region risk
# (the truth's wire-gap regions), region clip 8, on the 300 test seeds of the shipped pair (test seeds from 1: 1..992 and
# 997..1999, 150 each, flown as two processes at once because eval --harness flies one row of one condition in one
# worker thread). Argument: nominal or perturbed. Run after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
cond="${1:?nominal or perturbed}"
mkdir -p out
half() {
  node bin/drone-harness.js eval --harness --scenario sim/scenarios/default.yaml --split test --first-seed "$1" --flights 150 \
    --conditions "$cond" --rows coevo_student_gap_oracle --coevo models/coevo/student-r2 --coevo-harness models/coevo/harness-gap \
    --region-clip 8 --workers 1 > "docs/results/eval-gap-oracle-clip8-test-150-from-$1-$cond.txt" 2> "out/gap-oracle-test-s24-$1-$cond.log"
}
half 1 & a=$!
half 997 & b=$!
wait "$a"; wait "$b"
