#!/usr/bin/env bash
# Thirty-fifth session: 0.3,12,each with the guarded final approach, by docs/results/arrival-guarded-commit-rule.txt.
#   bash docs/results/arrival-guarded-commit-s35.sh val    (960 val flights, ~30 min; then bash docs/results/arrival-val-check.sh guarded-commit | commit-plain)
#   bash docs/results/arrival-guarded-commit-s35.sh test   (1000 test flights with strikes, ~30 min; pairs by woods-paired-mcnemar.sh)
# Run after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
NAME=arrival-6-guarded-commit-0.3,12,each
source docs/results/pair-run.sh
both() { run "$@" --arrival 6,guarded --vertical-commit 0.3,12,each; }
case "${1:?usage: arrival-guarded-commit-s35.sh val | test}" in
  val)
    both default val 8000 240 "eval-$NAME-val-240-from-8000.txt"
    both urban val 10000 120 "eval-$NAME-urban-val-120-from-10000.txt"
    both trees_only val 10000 120 "eval-$NAME-trees-val-120-from-10000.txt"
    ;;
  test)
    both default test 0 300 "strikes-$NAME-test-300.txt" --attribute-strikes
    both urban test 0 100 "strikes-$NAME-urban-test-100.txt" --attribute-strikes
    both trees_only test 0 100 "strikes-$NAME-trees-test-100.txt" --attribute-strikes
    ;;
  *) echo "usage: arrival-guarded-commit-s35.sh val | test" >&2; exit 2 ;;
esac
echo done
