#!/usr/bin/env bash
# Twenty-fourth session: the gap-oracle bound at clip 8 pooled over the 300 test seeds (docs/results/gap-oracle-test-plan.txt)
# from the four outputs of gap-oracle-test-s24.sh (two halves of 150 seeds per condition), beside the shipped pair's pooled counts
# (docs/results/pool-gap-300.txt). Counts are recovered from the printed rates (k / 150 to 0.1 %, exact for 150 seeds).
# Intervals from the repo's wilsonInterval. Run from the repository root after npm run build.
set -euo pipefail
node -e '
const fs = require("node:fs");
const { wilsonInterval } = require("./dist/src/harness/eval/FlightMetrics");
const count = (cond, first, col) => {
  const f = `docs/results/eval-gap-oracle-clip8-test-150-from-${first}-${cond}.txt`;
  const text = fs.readFileSync(f, "utf8");
  if (!new RegExp(`^${cond}: 150 test seeds`).test(text)) throw new Error(`${f}: not a ${cond} run on 150 test seeds`);
  const row = text.split("\n").find((l) => l.startsWith("| coevo_student_gap_oracle |"));
  if (row === undefined) throw new Error(`${f}: no coevo_student_gap_oracle row`);
  return Math.round((Number.parseFloat(row.split("|")[col]) * 150) / 100);
};
const f = (k) => { const w = wilsonInterval(k, 300); return `${k}/300 ${(100 * k / 300).toFixed(1)} % [${w.map((x) => (100 * x).toFixed(1)).join(", ")}]`; };
for (const cond of ["nominal", "perturbed"]) {
  const c = count(cond, 1, 2) + count(cond, 997, 2);
  const g = count(cond, 1, 3) + count(cond, 997, 3);
  console.log(`gap oracle, clip 8, ${cond}: collisions ${f(c)}; success ${f(g)}`);
}
console.log("shipped pair (docs/results/pool-gap-300.txt): nominal collisions 21/300 7.0 %, perturbed 16/300 5.3 %; BC 47/300 and 62/300");'
