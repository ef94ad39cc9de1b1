#!/usr/bin/env bash
# Fourteenth session: docs/results/wire-gap-more-test-seeds-plan.txt (test seeds from 659, 200 flights). Run after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
node bin/drone-harness.js eval --harness --scenario sim/scenarios/default.yaml --split test --first-seed 659 --flights 200 \
  --rows coevo_student_harness --coevo models/coevo/student-r2 --coevo-harness models/coevo/harness-gap \
  --region-clip 8 --workers 2 > docs/results/eval-harness-gap-clip8-test-200-more.txt 2> out/wire-gap-more-test-s14.log
