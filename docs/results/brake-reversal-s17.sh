#!/usr/bin/env bash
# Seventeenth session: stage 1 of docs/results/brake-reversal-decision-rule.txt. Run after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
common=(--scenario sim/scenarios/default.yaml --split val --first-seed 6000 --flights 60 --coevo models/coevo/student-r2
  --coevo-harness models/coevo/harness-gap --region-clip 8 --workers 2 --attribute-strikes)
node bin/drone-harness.js eval --harness "${common[@]}" --rows coevo_student_harness,coevo_student_off,bc_student \
  --brake-on-reversal 0.3 > docs/results/eval-brake-reversal-0.3-val-60.txt 2> out/brake-reversal-val.log
node bin/drone-harness.js eval --harness "${common[@]}" --rows bc_student > docs/results/eval-bc-val-60.txt 2> out/bc-val.log
