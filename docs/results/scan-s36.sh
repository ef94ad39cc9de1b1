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
families "${1:?usage: scan-s36.sh val | test}" "$NAME"
echo done
