#!/usr/bin/env bash
# Twenty-ninth session: the planner's vertical escape in place (eval --harness --vertical-in-place L: climb/descend
# with no forward speed while blocked_cruise >= L; PlannerOptions.verticalInPlace), with the shipped pair
# (student-r2 + harness-gap, clip 8). docs/results/vertical-in-place-decision-rule.txt.
#   bash docs/results/vertical-in-place-s29.sh calibrate   ON rows, nominal, val seeds from 30000 (apart from every set
#                                                          below): default 40, trees_only 20; L = 0 (shipped), 0.6, 0.7
#   bash docs/results/vertical-in-place-s29.sh calibrate-wire   the same seeds, L = 0.6 and 0.7 only where the detector
#                                                          sees wire (L,6: >= 6 cells at wire probability >= 0.9 within 2 s)
#   bash docs/results/vertical-in-place-s29.sh val L        the candidate on the val seeds of the twenty-eighth session's
#                                                          rule: default 240 from 8000, urban and trees_only 120 from 10000
# Run after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
run() { # scenario first-seed flights level output [more eval flags]
  node bin/drone-harness.js eval --harness --scenario "sim/scenarios/$1.yaml" --split val --first-seed "$2" --flights "$3" \
    --rows coevo_student_harness --coevo models/coevo/student-r2 --coevo-harness models/coevo/harness-gap \
    --region-clip 8 --vertical-in-place "$4" --workers 2 "${@:6}" > "docs/results/$5" 2> "out/${5%.txt}.log"
}
case "${1:?usage: vertical-in-place-s29.sh calibrate | calibrate-wire | val L}" in
  calibrate)
    for level in 0 0.6 0.7; do
      run default 30000 40 "$level" "vertical-in-place-calibration-$level-default.txt" --conditions nominal
      run trees_only 30000 20 "$level" "vertical-in-place-calibration-$level-trees.txt" --conditions nominal
    done
    ;;
  calibrate-wire)
    for level in 0.6,6 0.7,6; do
      run default 30000 40 "$level" "vertical-in-place-calibration-$level-default.txt" --conditions nominal
      run trees_only 30000 20 "$level" "vertical-in-place-calibration-$level-trees.txt" --conditions nominal
    done
    ;;
  val)
    level="${2:?usage: vertical-in-place-s29.sh val L}"
    run urban 10000 120 "$level" "eval-vertical-in-place-$level-urban-val-120-from-10000.txt"
    run trees_only 10000 120 "$level" "eval-vertical-in-place-$level-trees-val-120-from-10000.txt"
    run default 8000 240 "$level" "eval-vertical-in-place-$level-val-240-from-8000.txt"
    ;;
  *) echo "usage: vertical-in-place-s29.sh calibrate | calibrate-wire | val L" >&2; exit 2 ;;
esac
