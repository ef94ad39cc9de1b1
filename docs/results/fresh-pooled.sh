#!/usr/bin/env bash
# Thirty-ninth session, docs/results/fresh-300000-plan.txt: issue 13's collision targets on the never-flown test seeds
# from 200000 and 300000 pooled (one configuration: every row with the nodes' planner options, the scan and climb
# included), per family: each row's flights struck over both sets with a 95 % Wilson interval, ON against <= 10 % /
# <= 12 % and against a third of BC's pooled rate, and the harness's own effect paired ON / OFF over both sets
# (McNemar exact). Reads the --attribute-strikes outputs of fresh-climb-s38.sh and fresh-s39.sh. Run after npm run build.
#   bash docs/results/fresh-pooled.sh [FAMILY ...]   (default: default urban trees_only)
set -euo pipefail
cd "$(dirname "$0")/../.."
node - "$@" <<'JS'
const fs = require("fs");
const { wilsonInterval } = require("./dist/src/harness/eval/FlightMetrics");
const { strikeLists, targetsLine, pairedEffect } = require("./docs/results/strike-lists.js");
const FLIGHTS = { default: 300, urban: 100, trees_only: 100 };
const ROWS = ["bc_student", "coevo_student_off", "coevo_student_harness"];
const families = process.argv.length > 2 ? process.argv.slice(2) : Object.keys(FLIGHTS);
for (const fam of families) {
  if (!(fam in FLIGHTS)) throw new Error(`unknown family "${fam}" (${Object.keys(FLIGHTS).join(", ")})`);
  const files = [200000, 300000].map((from) => `docs/results/eval-fresh-climb-rows-${fam}-test-${FLIGHTS[fam]}-from-${from}.txt`);
  const missing = files.filter((f) => !fs.existsSync(f) || fs.statSync(f).size === 0);
  if (missing.length > 0) { console.log(`== ${fam}: not pooled, missing ${missing.join(", ")}`); continue; }
  const lists = files.map(strikeLists);
  console.log(`== ${fam}: test seeds from 200000 and 300000, ${2 * FLIGHTS[fam]} flights per row and condition`);
  for (const [cond, cap] of [["nominal", 10], ["perturbed", 12]]) {
    const pooled = {};
    for (const row of ROWS) {
      let seeds = 0; const struck = new Set();
      for (const [i, l] of lists.entries()) {
        const x = l[row]?.[cond];
        if (!x) throw new Error(`${files[i]}: no ${cond} ${row} strike list (--attribute-strikes)`);
        if (x.seeds !== FLIGHTS[fam]) throw new Error(`${files[i]}: ${cond} ${row} over ${x.seeds} seeds, expected ${FLIGHTS[fam]}`);
        seeds += x.seeds;
        for (const s of x.struck) struck.add(s);
      }
      pooled[row] = { seeds, struck };
      const [lo, hi] = wilsonInterval(struck.size, seeds);
      console.log(`${cond} ${row}: ${struck.size} of ${seeds} struck, ${(100 * struck.size / seeds).toFixed(1)} % [${(100 * lo).toFixed(1)}, ${(100 * hi).toFixed(1)}]`);
    }
    const rate = (row) => (100 * pooled[row].struck.size) / pooled[row].seeds;
    console.log(targetsLine(cond, rate("coevo_student_harness"), rate("bc_student"), cap));
    const { coevo_student_harness: on, coevo_student_off: off, bc_student: bc } = pooled;
    console.log(`${cond}: ${pairedEffect(on.struck, off.struck, bc.struck.size)}`);
  }
}
JS
