#!/usr/bin/env bash
# Fourteenth session: the wire-gap harness at clip 8 on the first 100 test seeds (docs/results/eval-harness-gap-clip8-test-100.txt)
# paired with the round-2 student OFF and with harness-r2 at clip 2 on the same seeds (docs/results/eval-strikes-r2-test-100.txt,
# the same flights as eval-harness-r2-clip2-test-100.txt). Run from the repository root after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
echo "# wire-gap harness (clip 8) vs OFF"
node docs/results/strike-pairing.js docs/results/eval-harness-gap-clip8-test-100.txt coevo_student_harness docs/results/eval-strikes-r2-test-100.txt coevo_student_off wire-gap-clip8 OFF
echo "# wire-gap harness (clip 8) vs harness-r2 (clip 2)"
node docs/results/strike-pairing.js docs/results/eval-harness-gap-clip8-test-100.txt coevo_student_harness docs/results/eval-strikes-r2-test-100.txt coevo_student_harness wire-gap-clip8 harness-r2
