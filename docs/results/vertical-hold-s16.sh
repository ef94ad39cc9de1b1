#!/usr/bin/env bash
# Sixteenth session: stage 1 of docs/results/vertical-hold-decision-rule.txt. Run after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
for w in 0.5 1.0; do
  node bin/drone-harness.js eval --harness --scenario sim/scenarios/default.yaml --split val --first-seed 6000 --flights 60 \
    --rows coevo_student_off,coevo_student_harness --coevo models/coevo/student-r2 --coevo-harness models/coevo/harness-gap \
    --region-clip 8 --vertical-hold $w --workers 2 --attribute-strikes > docs/results/eval-vertical-hold-$w-val-60.txt 2> out/vertical-hold-$w-val.log
done
