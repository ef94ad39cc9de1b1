#!/usr/bin/env bash
# Seventeenth session: stage 1 of docs/results/aimed-correction-decision-rule.txt (settings A and B). Run after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
for clip in 8 4; do
  node bin/drone-harness.js eval --harness --scenario sim/scenarios/default.yaml --split val --first-seed 6000 --flights 60 \
    --rows coevo_student_harness --coevo models/coevo/student-r2 --coevo-harness models/coevo/harness-gap --region-clip "$clip" \
    --aim 0.1,0.5 --workers 2 --attribute-strikes > "docs/results/eval-aimed-clip$clip-val-60.txt" 2> "out/aimed-clip$clip-val.log"
done
