#!/usr/bin/env bash
# Twenty-fourth session: docs/results/gap-more-data-decision-rule.txt. The wire-gap harness's recipe with 270 rollouts and 6000
# steps, then the 60 val seeds from 6000 at clip 8. Run after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
node bin/drone-harness.js fit-harness --detector models/coevo/student-r2 --harness models/coevo/harness-r2 --region-clip 2 \
  --scenario sim/scenarios/default.yaml --risk-target wire-gap --flights 270 --first-seed 5500 --val-flights 20 \
  --val-first-seed 3500 --out out/gap-more-data --steps 6000 --workers 2 2> docs/results/fit-harness-gap-more-data.txt
node bin/drone-harness.js eval --harness --scenario sim/scenarios/default.yaml --split val --first-seed 6000 --flights 60 \
  --rows coevo_student_off,coevo_student_harness --coevo models/coevo/student-r2 --coevo-harness out/gap-more-data \
  --region-clip 8 --workers 2 > docs/results/eval-gap-more-data-val-60.txt 2> out/gap-more-data-val.log
