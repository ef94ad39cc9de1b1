#!/usr/bin/env bash
# Thirty-seventh session: the scan when stuck (10 s) with the climb when stuck (8 m over the goal's altitude until within
# 6 m of it) and the nodes' planner options, by docs/results/climb-rule.txt.
#   bash docs/results/climb-s37.sh val    (960 val flights, ~55 min; then bash docs/results/arrival-val-check.sh climb)
#   bash docs/results/climb-s37.sh test   (1000 test flights with strikes, ~50 min; then bash docs/results/test-rule-check.sh
#     climb scan-10-climb-8,6-arrival-6-guarded-commit-0.3,12,each arrival-6-guarded-commit-0.3,12,each)
# Run after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
NAME=scan-10-climb-8,6-arrival-6-guarded-commit-0.3,12,each
source docs/results/pair-run.sh
both() { run "$@" --arrival 6,guarded --vertical-commit 0.3,12,each --scan-when-stuck 10 --stuck-climb 8,6; }
families "${1:?usage: climb-s37.sh val | test}" "$NAME"
echo done
