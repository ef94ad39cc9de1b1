#!/usr/bin/env bash
# Twenty-fifth session: docs/results/val-240-oracle-plan.txt. The perfect-risk bound of the shipped correction on the 240
# val seeds from 8000 (it chooses nothing). Run after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
node bin/drone-harness.js eval --harness --scenario sim/scenarios/default.yaml --split val --first-seed 8000 --flights 240 \
  --rows coevo_student_gap_oracle --coevo models/coevo/student-r2 --coevo-harness models/coevo/harness-gap \
  --region-clip 8 --workers 2 > docs/results/eval-gap-oracle-val-240-from-8000.txt 2> out/val-240-oracle.log
