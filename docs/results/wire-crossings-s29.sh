#!/usr/bin/env bash
# Twenty-ninth session: docs/results/wire-crossings-plan.txt. How the shipped pair (student-r2 + harness-gap, clip 8) and
# its student alone (OFF) pass each wire conductor: eval --harness --wire-crossings (src/harness/eval/wireCrossings.ts).
#   bash docs/results/wire-crossings-s29.sh val    default nominal, 240 val seeds from 8000; urban perturbed, 120 val
#                                                  seeds from 10000 (the seeds of eval-shipped-val-240-from-8000.txt and
#                                                  eval-caution-urban-val-120-from-10000.txt: the outcomes must repeat)
#   bash docs/results/wire-crossings-s29.sh bc     the BC student, OFF and the shipped pair, default nominal, the same 240
#                                                  val seeds from 8000 (every strike counted as level / at cruise speed)
# Run after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p out
run() { # scenario first-seed flights condition output [rows]
  node bin/drone-harness.js eval --harness --scenario "sim/scenarios/$1.yaml" --split val --first-seed "$2" --flights "$3" \
    --conditions "$4" --rows "${6:-coevo_student_off,coevo_student_harness}" --coevo models/coevo/student-r2 \
    --coevo-harness models/coevo/harness-gap --region-clip 8 --workers 2 --wire-crossings > "docs/results/$5" 2> "out/${5%.txt}.log"
}
case "${1:?usage: wire-crossings-s29.sh val | bc}" in
  val)
    run default 8000 240 nominal eval-crossings-default-nominal-val-240-from-8000.txt
    run urban 10000 120 perturbed eval-crossings-urban-perturbed-val-120-from-10000.txt
    ;;
  bc)
    run default 8000 240 nominal eval-crossings-bc-default-nominal-val-240-from-8000.txt bc_student,coevo_student_off,coevo_student_harness
    ;;
  *) echo "usage: wire-crossings-s29.sh val | bc" >&2; exit 2 ;;
esac
