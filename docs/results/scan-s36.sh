#!/usr/bin/env bash
# Thirty-sixth session: the scan when stuck (10 s) with the nodes' planner options, by docs/results/scan-rule.txt.
#   bash docs/results/scan-s36.sh val    (960 val flights, ~35 min; then bash docs/results/arrival-val-check.sh scan)
#   bash docs/results/scan-s36.sh test   (1000 test flights with strikes, ~40 min; then bash docs/results/test-rule-check.sh
#     scan scan-10-arrival-6-guarded-commit-0.3,12,each arrival-6-guarded-commit-0.3,12,each)
# Run after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
NAME=scan-10-arrival-6-guarded-commit-0.3,12,each
source docs/results/pair-run.sh
both() { run "$@" --arrival 6,guarded --vertical-commit 0.3,12,each --scan-when-stuck 10; }
case "${1:?usage: scan-s36.sh val | test}" in
  val)
    both trees_only val 10000 120 "eval-$NAME-trees-val-120-from-10000.txt"
    both default val 8000 240 "eval-$NAME-val-240-from-8000.txt"
    both urban val 10000 120 "eval-$NAME-urban-val-120-from-10000.txt"
    ;;
  test)
    both default test 0 300 "strikes-$NAME-test-300.txt" --attribute-strikes
    both urban test 0 100 "strikes-$NAME-urban-test-100.txt" --attribute-strikes
    both trees_only test 0 100 "strikes-$NAME-trees-test-100.txt" --attribute-strikes
    ;;
  *) echo "usage: scan-s36.sh val | test" >&2; exit 2 ;;
esac
echo done
