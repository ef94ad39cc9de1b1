#!/usr/bin/env bash
# Thirtieth session: the planner commits to one side of a seen wire (eval --harness --vertical-commit L,cells:
# while >= cells cells at uncorrected wire probability >= 0.9 were seen within 2 s, the first climb or descend at
# blocked_cruise >= L fixes the side by the wire cells' height, and later ones at that level fly to it;
# PlannerOptions.verticalCommit), with the shipped pair (student-r2 + harness-gap, clip 8).
# docs/results/vertical-commit-decision-rule.txt.
#   bash docs/results/vertical-commit-s30.sh calibrate    ON rows, nominal, val seeds from 30000 (apart from every set
#                                                         below): default 40, trees_only 20; L,cells = 0.6,6 and 0.4,6
#                                                         (the shipped pair on these seeds: vertical-in-place-calibration-0-*)
#   bash docs/results/vertical-commit-s30.sh val L,cells  the candidate on the val seeds of the twenty-eighth session's
#                                                         rule: default 240 from 8000, urban and trees_only 120 from 10000
#   bash docs/results/vertical-commit-s30.sh truth-table  0.4,6's default calibration flights again, the report with the
#                                                         true side of each side fixed (docs/results/vertical-commit-truth-plan.txt)
#   bash docs/results/vertical-commit-s30.sh bound        0.4,6 with the side from the world's wires (0.4,6,truth), urban
#                                                         120 from 10000 and default 240 from 8000
#   bash docs/results/vertical-commit-s30.sh bound-each   the same seeds, no hold, the true side at every decision where known
#                                                         (0.4,6,truth-each)
# Run after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
run() { # scenario first-seed flights L,cells output [more eval flags]
  node bin/drone-harness.js eval --harness --scenario "sim/scenarios/$1.yaml" --split val --first-seed "$2" --flights "$3" \
    --rows coevo_student_harness --coevo models/coevo/student-r2 --coevo-harness models/coevo/harness-gap \
    --region-clip 8 --vertical-commit "$4" --workers 2 "${@:6}" > "docs/results/$5" 2> "out/${5%.txt}.log"
}
case "${1:?usage: vertical-commit-s30.sh calibrate | val L,cells | truth-table | bound | bound-each}" in
  calibrate)
    for c in 0.6,6 0.4,6; do
      run default 30000 40 "$c" "vertical-commit-calibration-$c-default.txt" --conditions nominal
      run trees_only 30000 20 "$c" "vertical-commit-calibration-$c-trees.txt" --conditions nominal
    done
    ;;
  val)
    c="${2:?usage: vertical-commit-s30.sh val L,cells}"
    run urban 10000 120 "$c" "eval-vertical-commit-$c-urban-val-120-from-10000.txt"
    run trees_only 10000 120 "$c" "eval-vertical-commit-$c-trees-val-120-from-10000.txt"
    run default 8000 240 "$c" "eval-vertical-commit-$c-val-240-from-8000.txt"
    ;;
  truth-table)
    run default 30000 40 0.4,6 "vertical-commit-calibration-0.4,6-default-truth-table.txt" --conditions nominal
    ;;
  bound)
    run urban 10000 120 0.4,6,truth "eval-vertical-commit-0.4,6,truth-urban-val-120-from-10000.txt"
    run default 8000 240 0.4,6,truth "eval-vertical-commit-0.4,6,truth-val-240-from-8000.txt"
    ;;
  bound-each)
    run urban 10000 120 0.4,6,truth-each "eval-vertical-commit-0.4,6,truth-each-urban-val-120-from-10000.txt"
    run default 8000 240 0.4,6,truth-each "eval-vertical-commit-0.4,6,truth-each-val-240-from-8000.txt"
    ;;
  *) echo "usage: vertical-commit-s30.sh calibrate | val L,cells | truth-table | bound | bound-each" >&2; exit 2 ;;
esac
