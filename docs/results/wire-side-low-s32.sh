#!/usr/bin/env bash
# Thirty-second session: the wire cells' side at every climb or descend near a seen wire with a lower blocked_cruise
# level (eval --harness --vertical-commit L,6,each), the shipped pair (student-r2 + harness-gap, clip 8).
# docs/results/wire-side-low-decision-rule.txt.
#   bash docs/results/wire-side-low-s32.sh calibrate     ON rows, nominal, val seeds from 30000: default 40, trees_only 20;
#                                                        C = 0.3,6,each and 0.1,6,each
#   bash docs/results/wire-side-low-s32.sh val C         urban and trees_only 120 from 10000, default 240 from 8000
#   bash docs/results/wire-side-low-s32.sh test C        default's 300 test seeds, BC / OFF / ON, every row with C
#   bash docs/results/wire-side-low-s32.sh urban-test C  the same rows on urban's 100 test seeds
#   bash docs/results/wire-side-low-s32.sh trees-test C  the same rows on trees_only's 100 test seeds
# Run after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
run() { # scenario split first-seed|- flights C output rows [more eval flags]
  local from=(); [ "$3" = - ] || from=(--first-seed "$3")
  node bin/drone-harness.js eval --harness --scenario "sim/scenarios/$1.yaml" --split "$2" "${from[@]}" --flights "$4" \
    --rows "$7" --coevo models/coevo/student-r2 --coevo-harness models/coevo/harness-gap \
    --region-clip 8 --vertical-commit "$5" --workers 2 "${@:8}" > "docs/results/$6" 2> "out/${6%.txt}.log"
}
on=coevo_student_harness
all=bc_student,coevo_student_off,$on
usage="usage: wire-side-low-s32.sh calibrate | val C | test C | urban-test C | trees-test C"
case "${1:?$usage}" in
  calibrate)
    for c in 0.3,6,each 0.1,6,each; do
      run default val 30000 40 "$c" "wire-side-low-calibration-$c-default.txt" "$on" --conditions nominal
      run trees_only val 30000 20 "$c" "wire-side-low-calibration-$c-trees.txt" "$on" --conditions nominal
    done
    ;;
  val)
    c="${2:?$usage}"
    run urban val 10000 120 "$c" "eval-wire-side-$c-urban-val-120-from-10000.txt" "$on"
    run trees_only val 10000 120 "$c" "eval-wire-side-$c-trees-val-120-from-10000.txt" "$on"
    run default val 8000 240 "$c" "eval-wire-side-$c-val-240-from-8000.txt" "$on"
    ;;
  test) run default test - 300 "${2:?$usage}" "eval-wire-side-${2}-test-300.txt" "$all" ;;
  urban-test) run urban test - 100 "${2:?$usage}" "eval-wire-side-${2}-urban-test-100.txt" "$all" ;;
  trees-test) run trees_only test - 100 "${2:?$usage}" "eval-wire-side-${2}-trees-test-100.txt" "$all" ;;
  *) echo "$usage" >&2; exit 2 ;;
esac
