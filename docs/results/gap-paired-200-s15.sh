#!/usr/bin/env bash
# Fifteenth session: docs/results/gap-paired-200-plan.txt: the wire-gap harness ON and OFF on test seeds 659-1999,
# paired. Run from the repository root after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
node bin/drone-harness.js eval --harness --scenario sim/scenarios/default.yaml --split test --first-seed 659 --flights 200 \
  --rows coevo_student_off,coevo_student_harness --coevo models/coevo/student-r2 --coevo-harness models/coevo/harness-gap \
  --region-clip 8 --workers 2 > docs/results/eval-harness-gap-clip8-paired-test-200.txt 2> out/gap-paired-200-s15.log
