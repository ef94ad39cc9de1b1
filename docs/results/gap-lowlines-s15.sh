#!/usr/bin/env bash
# Fifteenth session: docs/results/gap-lowlines-plan.txt: the wire-gap harness (clip 8) on the validation family,
# 100 test seeds. Run from the repository root after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
node bin/drone-harness.js eval --harness --scenario sim/scenarios/validation_lowlines.yaml --split test --flights 100 \
  --rows coevo_student_off,coevo_student_harness --coevo models/coevo/student-r2 --coevo-harness models/coevo/harness-gap \
  --region-clip 8 --workers 2 --attribute-strikes > docs/results/eval-harness-gap-clip8-lowlines-test-100.txt 2> out/gap-lowlines-s15.log
