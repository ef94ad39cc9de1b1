#!/usr/bin/env bash
# Thirty-third session: what the vertical commitment (0.3,6,each) did before the woods' strikes (trees_only has no wires).
# docs/results/strikes-0.3-trees-plan.txt. Run after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
node bin/drone-harness.js eval --harness --scenario sim/scenarios/trees_only.yaml --split test --flights 100 \
  --rows coevo_student_harness --coevo models/coevo/student-r2 --coevo-harness models/coevo/harness-gap \
  --region-clip 8 --vertical-commit 0.3,6,each --attribute-strikes --workers 2 \
  > docs/results/strikes-0.3,6,each-trees-test-100.txt 2> out/strikes-0.3,6,each-trees-test-100.log
