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
families "${1:?usage: arrival-guarded-commit-s35.sh val | test}" "$NAME"
echo done
