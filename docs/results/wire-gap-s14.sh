#!/usr/bin/env bash
# Fourteenth session: the validation flights of docs/results/wire-gap-decision-rule.txt: the round-2 student with
# the wire-gap harness (models/coevo/harness-gap = out/gap-r2-harness of the rule's fit-harness command) at region
# clip 2 and 4, 60 val seeds from 6000, with the strike attribution (strike seeds for the pairing with OFF, and the
# flagged share of every struck wire). Run from the repository root after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
for clip in 2 4; do
  node bin/drone-harness.js eval --harness --scenario sim/scenarios/default.yaml --split val --first-seed 6000 --flights 60 \
    --rows coevo_student_harness --coevo models/coevo/student-r2 --coevo-harness models/coevo/harness-gap \
    --region-clip "$clip" --workers 2 --attribute-strikes > "docs/results/eval-harness-gap-clip$clip-val-60.txt" 2> "out/wire-gap-s14-clip$clip.log"
done
