#!/usr/bin/env bash
# Thirty-first session: the wire cells' side at every climb or descend near a seen wire, nothing held (eval --harness
# --vertical-commit L,cells,each; PlannerPilot CommitSide "each"), with the shipped pair (student-r2 + harness-gap,
# clip 8). docs/results/wire-side-each-decision-rule.txt.
#   bash docs/results/wire-side-each-s31.sh calibrate  ON rows, nominal, val seeds from 30000: default 40, trees_only 20;
#                                                      C = 0.4,6,each and 0.6,6,each
#   bash docs/results/wire-side-each-s31.sh val C      the rule's val seeds: urban and trees_only 120 from 10000, default
#                                                      240 from 8000, nominal and perturbed
#   bash docs/results/wire-side-each-s31.sh test C     default's 300 test seeds, rows bc_student, coevo_student_off and
#                                                      coevo_student_harness, every row with C
#   bash docs/results/wire-side-each-s31.sh urban-test C  the same rows on urban's 100 test seeds
#   bash docs/results/wire-side-each-s31.sh trees-test C  the same rows on trees_only's 100 test seeds
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
case "${1:?usage: wire-side-each-s31.sh calibrate | val C | test C | urban-test C | trees-test C}" in
  calibrate)
    for c in 0.4,6,each 0.6,6,each; do
      run default val 30000 40 "$c" "wire-side-each-calibration-$c-default.txt" "$on" --conditions nominal
      run trees_only val 30000 20 "$c" "wire-side-each-calibration-$c-trees.txt" "$on" --conditions nominal
    done
    ;;
  val)
    c="${2:?usage: wire-side-each-s31.sh val C}"
    run urban val 10000 120 "$c" "eval-wire-side-$c-urban-val-120-from-10000.txt" "$on"
    run trees_only val 10000 120 "$c" "eval-wire-side-$c-trees-val-120-from-10000.txt" "$on"
    run default val 8000 240 "$c" "eval-wire-side-$c-val-240-from-8000.txt" "$on"
    ;;
  test)
    c="${2:?usage: wire-side-each-s31.sh test C}"
    run default test - 300 "$c" "eval-wire-side-$c-test-300.txt" bc_student,coevo_student_off,$on
    ;;
  urban-test)
    c="${2:?usage: wire-side-each-s31.sh urban-test C}"
    run urban test - 100 "$c" "eval-wire-side-$c-urban-test-100.txt" bc_student,coevo_student_off,$on
    ;;
  trees-test)
    c="${2:?usage: wire-side-each-s31.sh trees-test C}"
    run trees_only test - 100 "$c" "eval-wire-side-$c-trees-test-100.txt" bc_student,coevo_student_off,$on
    ;;
  *) echo "usage: wire-side-each-s31.sh calibrate | val C | test C | urban-test C | trees-test C" >&2; exit 2 ;;
esac
