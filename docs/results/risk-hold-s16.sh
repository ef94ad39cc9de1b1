#!/usr/bin/env bash
# Sixteenth session: stage 1 of docs/results/risk-hold-decision-rule.txt. Run after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
node bin/drone-harness.js eval --harness --scenario sim/scenarios/default.yaml --split val --first-seed 6000 --flights 60 \
  --rows coevo_student_harness --coevo models/coevo/student-r2 --coevo-harness models/coevo/harness-gap --region-clip 8 \
  --risk-hold 0.7 --workers 2 --attribute-strikes > docs/results/eval-risk-hold-0.7-val-60.txt 2> out/risk-hold-val.log
