#!/usr/bin/env bash
# Thirty-sixth session, docs/results/fresh-confirm-plan.txt: the rows and issue 13's collision targets on the never-flown
# test seeds from 100000 (the outputs of docs/results/fresh-confirm-s36.sh), per family: each row's collisions and
# success per condition, ON against <= 10 % nominal / <= 12 % perturbed and <= 1/3 of BC on the same seeds, and the
# harness's own effect paired ON / OFF (docs/results/harness-effect-paired.sh). Run after npm run build.
#   bash docs/results/fresh-targets.sh [FROM]
# FROM 100000 (default): docs/results/fresh-confirm-s36.sh's outputs; FROM 200000: docs/results/fresh-climb-s38.sh's
# (the thirty-eighth session, docs/results/fresh-climb-plan.txt: every row with the scan and the climb when stuck);
# FROM 300000: docs/results/fresh-s39.sh's (the thirty-ninth session, docs/results/fresh-300000-plan.txt, the same
# configuration as 200000's).
set -euo pipefail
cd "$(dirname "$0")/../.."
from=${1:-100000}
case $from in
  100000) prefix=eval-fresh-rows ;;
  200000 | 300000) prefix=eval-fresh-climb-rows ;;
  *) echo "fresh-targets.sh: no fresh outputs from seed $from (100000, 200000 or 300000)" >&2; exit 2 ;;
esac
for fam in default:300 trees_only:100 urban:100; do
  name=${fam%%:*} flights=${fam##*:}
  file=docs/results/$prefix-$name-test-$flights-from-$from.txt
  [ -s "$file" ] || { echo "$name: $file missing or empty"; continue; }
  echo "== $name ($flights test seeds from $from)"
  node - "$file" <<'JS'
const { rowRates, targetsLine } = require("./docs/results/strike-lists.js");
const ROWS = ["bc_student", "coevo_student_off", "coevo_student_harness"];
const table = rowRates(process.argv[2]);
const rates = {};
for (const [cond, rows] of Object.entries(table)) {
  for (const name of ROWS.filter((n) => rows[n])) {
    const x = rows[name];
    (rates[cond] ??= {})[name] = Number(x.collisions);
    console.log(`${cond} ${name}: collisions ${x.collisions} % ${x.collisionsCi}, success ${x.success} % ${x.successCi}, timeouts ${x.timeouts} %`);
  }
}
for (const [c, cap] of [["nominal", 10], ["perturbed", 12]]) {
  const r = rates[c];
  if (r?.bc_student === undefined || r.coevo_student_harness === undefined) throw new Error(`${process.argv[2]}: no ${c} rows`);
  console.log(targetsLine(c, r.coevo_student_harness, r.bc_student, cap));
}
JS
  bash docs/results/harness-effect-paired.sh "$file" "$file"
done
