#!/usr/bin/env bash
# Fourteenth session: the wire-gap harness at region clip 8 on the first 100 test seeds (its val rule was met:
# docs/results/wire-gap-clip8-decision-rule.txt), with the strike attribution for the pairing with the committed OFF and
# harness-r2 flights on the same seeds (docs/results/eval-strikes-r2-test-100.txt). Run after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
node bin/drone-harness.js eval --harness --scenario sim/scenarios/default.yaml --split test --flights 100 \
  --rows coevo_student_harness --coevo models/coevo/student-r2 --coevo-harness models/coevo/harness-gap \
  --region-clip 8 --workers 2 --attribute-strikes > docs/results/eval-harness-gap-clip8-test-100.txt 2> out/wire-gap-test-s14.log
