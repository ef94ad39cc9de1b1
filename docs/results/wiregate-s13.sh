#!/usr/bin/env bash
# Thirteenth session: the validation flights of docs/results/wiregate-decision-rule.txt.
set -euo pipefail
cd "$(dirname "$0")/../.."
node bin/drone-harness.js eval --harness --scenario sim/scenarios/default.yaml --split val --first-seed 6000 --flights 60 \
  --rows coevo_student_wiregate --coevo models/coevo/student-r2 --coevo-harness models/coevo/harness-r2 \
  --region-clip 2 --workers 2 --attribute-strikes > docs/results/eval-wiregate-r2-val-60.txt 2> out/wiregate-s13.log
