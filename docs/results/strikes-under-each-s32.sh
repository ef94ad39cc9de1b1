#!/usr/bin/env bash
# Thirty-second session: what the vertical commitment (eval --harness --vertical-commit 0.6,6,each) did in the 3 s
# before each strike left, on the thirty-first session's val seeds (docs/results/strikes-under-each-plan.txt).
#   bash docs/results/strikes-under-each-s32.sh val   the shipped pair, nominal and perturbed: default 240 from 8000,
#                                                     urban 120 from 10000
# Run after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
run() { # scenario first-seed flights output
  node bin/drone-harness.js eval --harness --scenario "sim/scenarios/$1.yaml" --split val --first-seed "$2" --flights "$3" \
    --rows coevo_student_harness --coevo models/coevo/student-r2 --coevo-harness models/coevo/harness-gap \
    --region-clip 8 --vertical-commit 0.6,6,each --attribute-strikes --workers 2 > "docs/results/$4" 2> "out/${4%.txt}.log"
}
case "${1:?usage: strikes-under-each-s32.sh val}" in
  val)
    run urban 10000 120 strikes-under-each-urban-val-120-from-10000.txt
    run default 8000 240 strikes-under-each-val-240-from-8000.txt
    ;;
  *) echo "usage: strikes-under-each-s32.sh val" >&2; exit 2 ;;
esac
