# Sourced by the arrival scripts (arrival-s34.sh, arrival-guarded-s34.sh, arrival-guarded-commit-s35.sh), from the
# repository root: one `eval --harness` of the nodes' pair (student-r2 + harness-gap, clip 8, 2 workers), the ON row.
#   run scenario split first-seed flights output [more eval flags]   (output in docs/results, its log in out/)
run() {
  node bin/drone-harness.js eval --harness --scenario "sim/scenarios/$1.yaml" --split "$2" --first-seed "$3" --flights "$4" \
    --rows coevo_student_harness --coevo models/coevo/student-r2 --coevo-harness models/coevo/harness-gap \
    --region-clip 8 --workers 2 "${@:6}" > "docs/results/$5" 2> "out/${5%.txt}.log"
}
