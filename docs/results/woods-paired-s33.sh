#!/usr/bin/env bash
# Thirty-third session: the woods' strikes paired per seed, with and without the vertical commitment.
# docs/results/woods-paired-plan.txt. Run after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
run() { # split first-seed|- flights output [more eval flags]
  local from=(); [ "$2" = - ] || from=(--first-seed "$2")
  node bin/drone-harness.js eval --harness --scenario sim/scenarios/trees_only.yaml --split "$1" "${from[@]}" --flights "$3" \
    --rows coevo_student_harness --coevo models/coevo/student-r2 --coevo-harness models/coevo/harness-gap \
    --region-clip 8 --attribute-strikes --workers 2 "${@:5}" > "docs/results/$4" 2> "out/${4%.txt}.log"
}
case "${1:?usage: woods-paired-s33.sh test | val}" in
  test) run test - 100 strikes-no-option-trees-test-100.txt ;;
  val)
    run val 10000 120 strikes-no-option-trees-val-120-from-10000.txt
    run val 10000 120 strikes-0.3,12,each-trees-val-120-from-10000.txt --vertical-commit 0.3,12,each
    ;;
  *) echo "usage: woods-paired-s33.sh test | val" >&2; exit 2 ;;
esac
