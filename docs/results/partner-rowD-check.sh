#!/usr/bin/env bash
# Sixteenth session: the committed models/photo/student-rowD as the partner reproduces seed 1 of the twelfth session's
# partner run (docs/results/transfer-real-partner-s1.txt, made with out/photo-rowD extracted from commit c74e2bc); the
# table rows are compared. Run after npm run build (about 5 min on one core).
set -euo pipefail
cd "$(dirname "$0")/../.."
node bin/drone-harness.js transfer --real ../shared/fixtures/real/pld-dev --model photo --partner models/photo/student-rowD --folds 5 --curve all --steps 400 --scope all --flip --schedule cosine --tta flip --seed 1 > docs/results/transfer-real-partner-rowD-check-s1.txt
diff <(grep -E "^all|^0 " docs/results/transfer-real-partner-rowD-check-s1.txt) <(grep -E "^all|^0 " docs/results/transfer-real-partner-s1.txt) && echo "identical table rows"
