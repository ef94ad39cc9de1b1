#!/usr/bin/env bash
# Fourteenth session: docs/results/gap-oracle-plan.txt: the wire-gap harness's own correction with a perfect region risk
# (the truth's wire-gap regions), paired with OFF, 60 val seeds from 6000, region clip 2 and 4. Run after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
for clip in 2 4; do
  node bin/drone-harness.js eval --harness --scenario sim/scenarios/default.yaml --split val --first-seed 6000 --flights 60 \
    --rows coevo_student_off,coevo_student_gap_oracle --coevo models/coevo/student-r2 --coevo-harness models/coevo/harness-gap \
    --region-clip "$clip" --workers 2 > "docs/results/eval-gap-oracle-clip$clip-val-60.txt" 2> "out/gap-oracle-s14-clip$clip.log"
done
