#!/usr/bin/env bash
# Thirty-fourth session: the guarded final approach (--arrival 6,guarded) by docs/results/arrival-guarded-rule.txt.
#   bash docs/results/arrival-guarded-s34.sh val    (the 960 val flights, ~28 min; then bash docs/results/arrival-val-check.sh guarded)
#   bash docs/results/arrival-guarded-s34.sh test   (the 1000 test flights with strikes, ~30 min; pairs by woods-paired-mcnemar.sh)
# Run after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
source docs/results/pair-run.sh
guarded() { run "$@" --arrival 6,guarded; }
case "${1:?usage: arrival-guarded-s34.sh val | test}" in
  val)
    guarded default val 8000 240 eval-arrival-6-guarded-val-240-from-8000.txt
    guarded urban val 10000 120 eval-arrival-6-guarded-urban-val-120-from-10000.txt
    guarded trees_only val 10000 120 eval-arrival-6-guarded-trees-val-120-from-10000.txt
    ;;
  test)
    guarded default test 0 300 strikes-arrival-6-guarded-test-300.txt --attribute-strikes
    guarded urban test 0 100 strikes-arrival-6-guarded-urban-test-100.txt --attribute-strikes
    guarded trees_only test 0 100 strikes-arrival-6-guarded-trees-test-100.txt --attribute-strikes
    ;;
  *) echo "usage: arrival-guarded-s34.sh val | test" >&2; exit 2 ;;
esac
echo done
