#!/usr/bin/env bash
# Sixteenth session: training and stage 1 of docs/results/gap-onpolicy-decision-rule.txt. Run after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
node bin/drone-harness.js fit-harness --detector models/coevo/student-r2 --harness models/coevo/harness-gap --region-clip 8 \
  --scenario sim/scenarios/default.yaml --risk-target wire-gap --flights 90 --first-seed 60000 --val-flights 20 \
  --val-first-seed 3500 --out out/gap-onpolicy-harness --steps 1500 --workers 2 2> docs/results/fit-harness-gap-onpolicy.txt
node bin/drone-harness.js eval --harness --scenario sim/scenarios/default.yaml --split val --first-seed 6000 --flights 60 \
  --rows coevo_student_harness --coevo models/coevo/student-r2 --coevo-harness out/gap-onpolicy-harness --region-clip 8 \
  --workers 2 --attribute-strikes > docs/results/eval-harness-gap-onpolicy-val-60.txt 2> out/gap-onpolicy-val.log
