#!/usr/bin/env bash
# Thirty-third session: the vertical commitment (0.3,C,each) with a stricter wire evidence count C.
# docs/results/wire-evidence-cells-rule.txt. Run after npm run build.
#   bash docs/results/wire-evidence-cells-s33.sh calibrate   C = 12 and 24: default 40, trees_only 20 (val from 30000)
#   bash docs/results/wire-evidence-cells-s33.sh val C       urban and trees_only 120 from 10000, default 240 from 8000
#   bash docs/results/wire-evidence-cells-s33.sh test C      the ON row on default's 300, urban's and trees_only's 100 test seeds
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
run() { # scenario split first-seed|- flights C output [more eval flags]
  local from=(); [ "$3" = - ] || from=(--first-seed "$3")
  node bin/drone-harness.js eval --harness --scenario "sim/scenarios/$1.yaml" --split "$2" "${from[@]}" --flights "$4" \
    --rows coevo_student_harness --coevo models/coevo/student-r2 --coevo-harness models/coevo/harness-gap \
    --region-clip 8 --vertical-commit "$5" --workers 2 "${@:7}" > "docs/results/$6" 2> "out/${6%.txt}.log"
}
usage="usage: wire-evidence-cells-s33.sh calibrate | val C | test C"
case "${1:?$usage}" in
  calibrate)
    for c in 0.3,12,each 0.3,24,each; do
      run default val 30000 40 "$c" "wire-evidence-calibration-$c-default.txt" --conditions nominal
      run trees_only val 30000 20 "$c" "wire-evidence-calibration-$c-trees.txt" --conditions nominal
    done
    ;;
  val)
    c="${2:?$usage}"
    run urban val 10000 120 "$c" "eval-wire-evidence-$c-urban-val-120-from-10000.txt"
    run trees_only val 10000 120 "$c" "eval-wire-evidence-$c-trees-val-120-from-10000.txt"
    run default val 8000 240 "$c" "eval-wire-evidence-$c-val-240-from-8000.txt"
    ;;
  test)
    c="${2:?$usage}"
    run trees_only test - 100 "$c" "eval-wire-evidence-$c-trees-test-100-on.txt"
    run urban test - 100 "$c" "eval-wire-evidence-$c-urban-test-100-on.txt"
    run default test - 300 "$c" "eval-wire-evidence-$c-test-300-on.txt"
    ;;
  *) echo "$usage" >&2; exit 2 ;;
esac
