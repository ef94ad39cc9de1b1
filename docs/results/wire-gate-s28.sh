#!/usr/bin/env bash
# Twenty-eighth session: docs/results/wire-gate-decision-rule.txt. The shipped pair (student-r2 + harness-gap, clip 8)
# with a wire gate on its correction (eval --harness --wire-gate level,cells,window_s).
#   bash docs/results/wire-gate-s28.sh calibrate    OFF rows, 20 nominal val seeds from 20000 per family, five gates:
#                                                   the open shares and evidence the candidates were chosen from
#   bash docs/results/wire-gate-s28.sh val          the two candidates on the val seeds of trees_only, urban and default
#   bash docs/results/wire-gate-s28.sh test GATE    the chosen gate on the test seeds of the four families
#   bash docs/results/wire-gate-s28.sh strikes      gate 0.9,6,2 on urban's val seeds, perturbed, every strike attributed
#                                                   (docs/results/wire-gate-strikes-plan.txt; a diagnostic, choosing nothing)
#   bash docs/results/wire-gate-s28.sh caution      the manoeuvres of OFF, the shipped pair and gate 0.9,6,2 on urban's and
#                                                   trees_only's val seeds, perturbed (docs/results/wire-gate-caution-plan.txt)
# Run after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
run() { # scenario split first-seed flights gate|none output [more eval flags]
  local gate=(--wire-gate "$5")
  [ "$5" = none ] && gate=()
  node bin/drone-harness.js eval --harness --scenario "sim/scenarios/$1.yaml" --split "$2" --first-seed "$3" --flights "$4" \
    --rows coevo_student_harness --coevo models/coevo/student-r2 --coevo-harness models/coevo/harness-gap \
    --region-clip 8 "${gate[@]}" --workers 2 "${@:7}" > "docs/results/$6" 2> "out/${6%.txt}.log"
}
case "${1:?usage: wire-gate-s28.sh calibrate | val | test GATE | strikes | caution}" in
  calibrate)
    for gate in 0.5,1,2 0.9,1,2 0.9,6,2 0.9,12,2 0.9,6,1; do
      for family in default urban trees_only; do
        run "$family" val 20000 20 "$gate" "wire-gate-calibration-$gate-$family.txt" --conditions nominal --rows coevo_student_off
      done
    done
    ;;
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
  caution)
    for family in urban trees_only; do
      run "$family" val 10000 120 none "eval-caution-$family-val-120-from-10000.txt" --conditions perturbed --rows coevo_student_off,coevo_student_harness
      run "$family" val 10000 120 0.9,6,2 "eval-caution-wire-gate-0.9,6,2-$family-val-120-from-10000.txt" --conditions perturbed
    done
    ;;
  *) echo "usage: wire-gate-s28.sh calibrate | val | test GATE | strikes | caution" >&2; exit 2 ;;
esac
