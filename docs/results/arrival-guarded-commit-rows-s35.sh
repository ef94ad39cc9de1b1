#!/usr/bin/env bash
# Thirty-fifth session, docs/results/arrival-guarded-commit-rows-plan.txt: BC and OFF on default's 300 test seeds with
# --arrival 6,guarded --vertical-commit 0.3,12,each (~35 min). Run after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
OUT=eval-arrival-6-guarded-commit-0.3,12,each-bc-off-test-300.txt
node bin/drone-harness.js eval --harness --scenario sim/scenarios/default.yaml --split test --first-seed 0 --flights 300 \
  --rows bc_student,coevo_student_off --coevo models/coevo/student-r2 --coevo-harness models/coevo/harness-gap \
  --region-clip 8 --workers 2 --arrival 6,guarded --vertical-commit 0.3,12,each --attribute-strikes \
  > "docs/results/$OUT" 2> "out/${OUT%.txt}.log"
echo done
