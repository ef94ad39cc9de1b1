#!/usr/bin/env bash
# Twenty-eighth session: docs/results/wire-gate-decision-rule.txt. The shipped pair (student-r2 + harness-gap, clip 8)
# with a wire gate on its correction (eval --harness --wire-gate level,cells,window_s).
#   bash docs/results/wire-gate-s28.sh val          the two candidates on the val seeds of trees_only, urban and default
#   bash docs/results/wire-gate-s28.sh test GATE    the chosen gate on the test seeds of the four families
#   bash docs/results/wire-gate-s28.sh strikes      gate 0.9,6,2 on urban's val seeds, perturbed, every strike attributed
#                                                   (docs/results/wire-gate-strikes-plan.txt; a diagnostic, choosing nothing)
# Run after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
run() { # scenario split first-seed flights gate output [more eval flags]
  node bin/drone-harness.js eval --harness --scenario "sim/scenarios/$1.yaml" --split "$2" --first-seed "$3" --flights "$4" \
    --rows coevo_student_harness --coevo models/coevo/student-r2 --coevo-harness models/coevo/harness-gap \
    --region-clip 8 --wire-gate "$5" --workers 2 "${@:7}" > "docs/results/$6" 2> "out/${6%.txt}.log"
}
case "${1:?usage: wire-gate-s28.sh val | test GATE | strikes}" in
  val)
    for gate in 0.9,6,2 0.9,12,2; do
      run trees_only val 10000 120 "$gate" "eval-wire-gate-$gate-trees-val-120-from-10000.txt"
      run urban val 10000 120 "$gate" "eval-wire-gate-$gate-urban-val-120-from-10000.txt"
    done
    for gate in 0.9,6,2 0.9,12,2; do
      run default val 8000 240 "$gate" "eval-wire-gate-$gate-val-240-from-8000.txt"
    done
    ;;
  test)
    gate="${2:?usage: wire-gate-s28.sh test GATE (the gate chosen by the rule)}"
    run trees_only test 0 100 "$gate" "eval-wire-gate-$gate-trees-test-100.txt"
    run urban test 0 100 "$gate" "eval-wire-gate-$gate-urban-test-100.txt"
    run validation_lowlines test 0 100 "$gate" "eval-wire-gate-$gate-lowlines-test-100.txt"
    run default test 0 300 "$gate" "eval-wire-gate-$gate-test-300.txt"
    ;;
  strikes)
    run urban val 10000 120 0.9,6,2 "eval-wire-gate-0.9,6,2-urban-val-120-from-10000-strikes.txt" --conditions perturbed --attribute-strikes
    ;;
  *) echo "usage: wire-gate-s28.sh val | test GATE | strikes" >&2; exit 2 ;;
esac
