#!/usr/bin/env bash
# Thirty-fourth session: the guarded final approach (--arrival 6,guarded) by docs/results/arrival-guarded-rule.txt.
#   bash docs/results/arrival-guarded-s34.sh val    (the 960 val flights, ~28 min; then bash docs/results/arrival-val-check.sh guarded)
#   bash docs/results/arrival-guarded-s34.sh test   (the 1000 test flights with strikes, ~30 min; pairs by woods-paired-mcnemar.sh)
# Run after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
run() { # scenario split first-seed flights output [more eval flags]
  node bin/drone-harness.js eval --harness --scenario "sim/scenarios/$1.yaml" --split "$2" --first-seed "$3" --flights "$4" \
    --rows coevo_student_harness --coevo models/coevo/student-r2 --coevo-harness models/coevo/harness-gap \
    --region-clip 8 --workers 2 --arrival 6,guarded "${@:6}" > "docs/results/$5" 2> "out/${5%.txt}.log"
}
case "${1:?usage: arrival-guarded-s34.sh val | test}" in
  val)
    run default val 8000 240 eval-arrival-6-guarded-val-240-from-8000.txt
    run urban val 10000 120 eval-arrival-6-guarded-urban-val-120-from-10000.txt
    run trees_only val 10000 120 eval-arrival-6-guarded-trees-val-120-from-10000.txt
    ;;
  test)
    run default test 0 300 strikes-arrival-6-guarded-test-300.txt --attribute-strikes
    run urban test 0 100 strikes-arrival-6-guarded-urban-test-100.txt --attribute-strikes
    run trees_only test 0 100 strikes-arrival-6-guarded-trees-test-100.txt --attribute-strikes
    ;;
  *) echo "usage: arrival-guarded-s34.sh val | test" >&2; exit 2 ;;
esac
echo done
