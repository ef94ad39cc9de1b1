#!/usr/bin/env bash
# Thirty-fifth session: 0.3,12,each with the guarded final approach, by docs/results/arrival-guarded-commit-rule.txt.
#   bash docs/results/arrival-guarded-commit-s35.sh val    (960 val flights, ~30 min; then bash docs/results/arrival-val-check.sh guarded-commit | commit-plain)
#   bash docs/results/arrival-guarded-commit-s35.sh test   (1000 test flights with strikes, ~30 min; pairs by woods-paired-mcnemar.sh)
# Run after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
NAME=arrival-6-guarded-commit-0.3,12,each
run() { # scenario split first-seed flights output [more eval flags]
  node bin/drone-harness.js eval --harness --scenario "sim/scenarios/$1.yaml" --split "$2" --first-seed "$3" --flights "$4" \
    --rows coevo_student_harness --coevo models/coevo/student-r2 --coevo-harness models/coevo/harness-gap \
    --region-clip 8 --workers 2 --arrival 6,guarded --vertical-commit 0.3,12,each "${@:6}" > "docs/results/$5" 2> "out/${5%.txt}.log"
}
case "${1:?usage: arrival-guarded-commit-s35.sh val | test}" in
  val)
    run default val 8000 240 "eval-$NAME-val-240-from-8000.txt"
    run urban val 10000 120 "eval-$NAME-urban-val-120-from-10000.txt"
    run trees_only val 10000 120 "eval-$NAME-trees-val-120-from-10000.txt"
    ;;
  test)
    run default test 0 300 "strikes-$NAME-test-300.txt" --attribute-strikes
    run urban test 0 100 "strikes-$NAME-urban-test-100.txt" --attribute-strikes
    run trees_only test 0 100 "strikes-$NAME-trees-test-100.txt" --attribute-strikes
    ;;
  *) echo "usage: arrival-guarded-commit-s35.sh val | test" >&2; exit 2 ;;
esac
echo done
