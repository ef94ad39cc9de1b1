# Sourced by the arrival scripts (arrival-s34.sh, arrival-guarded-s34.sh, arrival-guarded-commit-s35.sh) and scan-s36.sh, from the
# repository root: one `eval --harness` of the nodes' pair (student-r2 + harness-gap, clip 8, 2 workers), the ON row.
#   run scenario split first-seed flights output [more eval flags]   (output in docs/results, its log in out/)
run() {
  node bin/drone-harness.js eval --harness --scenario "sim/scenarios/$1.yaml" --split "$2" --first-seed "$3" --flights "$4" \
    --rows coevo_student_harness --coevo models/coevo/student-r2 --coevo-harness models/coevo/harness-gap \
    --region-clip 8 --workers 2 "${@:6}" > "docs/results/$5" 2> "out/${5%.txt}.log"
}

# The rule's three families with the caller's both() (run with its options), outputs named after NAME:
#   families val|test NAME   (val: default 240 from 8000, urban and trees_only 120 from 10000; test: default 300,
#   urban and trees_only 100 from 0, with --attribute-strikes)
families() {
  case "$1" in
    val)
      both default val 8000 240 "eval-$2-val-240-from-8000.txt"
      both urban val 10000 120 "eval-$2-urban-val-120-from-10000.txt"
      both trees_only val 10000 120 "eval-$2-trees-val-120-from-10000.txt"
      ;;
    test)
      both default test 0 300 "strikes-$2-test-300.txt" --attribute-strikes
      both urban test 0 100 "strikes-$2-urban-test-100.txt" --attribute-strikes
      both trees_only test 0 100 "strikes-$2-trees-test-100.txt" --attribute-strikes
      ;;
    *) echo "usage: $(basename "$0") val | test" >&2; exit 2 ;;
  esac
}
