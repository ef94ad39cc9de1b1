#!/usr/bin/env bash
# Thirteenth session: the error decomposition of docs/results/truth-mix-plan.txt.
set -euo pipefail
cd "$(dirname "$0")/../.."
node bin/drone-harness.js eval --harness --scenario sim/scenarios/default.yaml --split val --first-seed 6000 --flights 60 \
  --rows coevo_student_off,coevo_student_fill_wire,coevo_student_fill,coevo_student_clean --coevo models/coevo/student-r2 --coevo-harness models/coevo/harness-r2 \
  --region-clip 2 --workers 2 > docs/results/eval-truth-mix-r2-val-60.txt 2> out/truth-mix-s13.log
