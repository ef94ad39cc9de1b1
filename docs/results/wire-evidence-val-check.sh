#!/usr/bin/env bash
# Thirty-third session: part 2 of docs/results/wire-evidence-cells-rule.txt on the val outputs of 0.3,C,each, then,
# only if it passes, part 3's test flights. Prints the counts and the verdict.
#   bash docs/results/wire-evidence-val-check.sh 0.3,12,each [--fly-test]
set -euo pipefail
cd "$(dirname "$0")/../.."
c="${1:?usage: wire-evidence-val-check.sh C [--fly-test]}"
node - "$c" <<'JS'
const fs = require("fs");
const c = process.argv[2];
const fams = [["default", `eval-wire-evidence-${c}-val-240-from-8000.txt`, 240, 32], ["urban", `eval-wire-evidence-${c}-urban-val-120-from-10000.txt`, 120, 14], ["trees_only", `eval-wire-evidence-${c}-trees-val-120-from-10000.txt`, 120, 5]];
let coll = 0, goals = 0, familyOk = true;
for (const [name, file, n, limit] of fams) {
  const rows = fs.readFileSync(`docs/results/${file}`, "utf8").split("\n").filter((l) => l.startsWith("| coevo_student_harness |"));
  if (rows.length !== 2) throw new Error(`${file}: expected the ON row nominal and perturbed, found ${rows.length}`);
  const [cn, cp] = rows.map((r) => Math.round((parseFloat(r.split("|")[2]) * n) / 100));
  const [gn, gp] = rows.map((r) => Math.round((parseFloat(r.split("|")[3]) * n) / 100));
  console.log(`${name}: collisions ${cn} + ${cp} = ${cn + cp} (limit ${limit + 2}), goals ${gn} + ${gp} = ${gn + gp}`);
  coll += cn + cp;
  goals += gn + gp;
  if (cn + cp > limit + 2) familyOk = false;
}
const pass = coll <= 46 && familyOk && goals >= 736;
console.log(`over the 960: ${coll} collisions (<= 46), ${goals} goals (>= 736), every family within 2 of 0.6,6,each: ${familyOk}: ${pass ? "passes" : "fails"}`);
process.exit(pass ? 0 : 3);
JS
if [ "${2:-}" = --fly-test ]; then bash docs/results/wire-evidence-cells-s33.sh test "$c"; fi
