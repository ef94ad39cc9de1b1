#!/usr/bin/env bash
# The test flights of docs/results/wire-evidence-12-next-rule.txt: the ON row with --attribute-strikes, with
# 0.3,12,each and (default, urban) without the option; paired by docs/results/woods-paired-mcnemar.sh.
#   bash docs/results/wire-evidence-12-test.sh trees | urban | default
# Run after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
run() { # scenario flights output [more eval flags]
  node bin/drone-harness.js eval --harness --scenario "sim/scenarios/$1.yaml" --split test --flights "$2" \
    --rows coevo_student_harness --coevo models/coevo/student-r2 --coevo-harness models/coevo/harness-gap \
    --region-clip 8 --attribute-strikes --workers 2 "${@:4}" > "docs/results/$3" 2> "out/${3%.txt}.log"
}
case "${1:?usage: wire-evidence-12-test.sh trees | urban | default}" in
  trees) run trees_only 100 "strikes-0.3,12,each-trees-test-100.txt" --vertical-commit 0.3,12,each ;;
  urban)
    run urban 100 "strikes-0.3,12,each-urban-test-100.txt" --vertical-commit 0.3,12,each
    run urban 100 strikes-no-option-urban-test-100.txt
    ;;
  default)
    run default 300 "strikes-0.3,12,each-test-300.txt" --vertical-commit 0.3,12,each
    run default 300 strikes-no-option-test-300.txt
    ;;
  *) echo "usage: wire-evidence-12-test.sh trees | urban | default" >&2; exit 2 ;;
esac
