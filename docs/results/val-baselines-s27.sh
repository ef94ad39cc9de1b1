#!/usr/bin/env bash
# Twenty-seventh session: docs/results/val-baselines-s27-plan.txt. The shipped pair's missing val baselines: trees_only
# (OFF and ON) and urban (OFF), 120 val seeds from 10000 each. Run after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
node bin/drone-harness.js eval --harness --scenario sim/scenarios/trees_only.yaml --split val --first-seed 10000 --flights 120 \
  --rows coevo_student_off,coevo_student_harness --coevo models/coevo/student-r2 --coevo-harness models/coevo/harness-gap \
  --region-clip 8 --workers 2 > docs/results/eval-shipped-trees-val-120-from-10000.txt 2> out/shipped-trees-val.log
node bin/drone-harness.js eval --harness --scenario sim/scenarios/urban.yaml --split val --first-seed 10000 --flights 120 \
  --rows coevo_student_off --coevo models/coevo/student-r2 --coevo-harness models/coevo/harness-gap \
  --region-clip 8 --workers 2 > docs/results/eval-off-urban-val-120-from-10000.txt 2> out/off-urban-val.log
