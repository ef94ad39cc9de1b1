#!/usr/bin/env bash
# Thirty-fourth session: the final approach (--arrival 6) and 0.3,12,each with it, by docs/results/arrival-rule.txt.
#   bash docs/results/arrival-s34.sh val            (960 val flights each for --arrival 6 and 0.3,12,each + --arrival 6, ~65 min)
#   bash docs/results/arrival-s34.sh val-arrival | val-commit   (each half of val alone)
#   bash docs/results/arrival-s34.sh test-arrival   (the 1000 test flights with --arrival 6, and default's without it, with strikes)
#   bash docs/results/arrival-s34.sh test-commit    (the 1000 test flights of 0.3,12,each + --arrival 6, with strikes)
# Run after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
source docs/results/pair-run.sh
val() { # name [more eval flags]
  run default val 8000 240 "eval-$1-val-240-from-8000.txt" "${@:2}"
  run urban val 10000 120 "eval-$1-urban-val-120-from-10000.txt" "${@:2}"
  run trees_only val 10000 120 "eval-$1-trees-val-120-from-10000.txt" "${@:2}"
}
test3() { # name [more eval flags]
  run default test 0 300 "strikes-$1-test-300.txt" --attribute-strikes "${@:2}"
  run urban test 0 100 "strikes-$1-urban-test-100.txt" --attribute-strikes "${@:2}"
  run trees_only test 0 100 "strikes-$1-trees-test-100.txt" --attribute-strikes "${@:2}"
}
case "${1:?usage: arrival-s34.sh val | val-arrival | val-commit | test-arrival | test-commit}" in
  val)
    val arrival-6 --arrival 6
    val arrival-6-commit-0.3,12,each --arrival 6 --vertical-commit 0.3,12,each
    ;;
  val-arrival) val arrival-6 --arrival 6 ;;
  val-commit) val arrival-6-commit-0.3,12,each --arrival 6 --vertical-commit 0.3,12,each ;;
  test-arrival)
    test3 arrival-6 --arrival 6
    run default test 0 300 strikes-no-option-test-300.txt --attribute-strikes
    ;;
  test-commit) test3 arrival-6-commit-0.3,12,each --arrival 6 --vertical-commit 0.3,12,each ;;
  *) echo "usage: arrival-s34.sh val | val-arrival | val-commit | test-arrival | test-commit" >&2; exit 2 ;;
esac
echo done
