#!/usr/bin/env bash
# Thirty-fourth session: part 1 of docs/results/arrival-rule.txt on the val outputs.
#   bash docs/results/arrival-val-check.sh arrival   (--arrival 6 against the pair without it)
#   bash docs/results/arrival-val-check.sh commit    (0.3,12,each + --arrival 6 against --arrival 6 alone)
#   bash docs/results/arrival-val-check.sh guarded   (--arrival 6,guarded against the pair without it; arrival-guarded-rule.txt)
#   bash docs/results/arrival-val-check.sh guarded-commit | commit-plain   (0.3,12,each + --arrival 6,guarded against
#     --arrival 6,guarded alone, or against the pair without any option; arrival-guarded-commit-rule.txt)
#   bash docs/results/arrival-val-check.sh scan   (--scan-when-stuck 10 with the nodes' options against those options alone; scan-rule.txt)
#   bash docs/results/arrival-val-check.sh climb  (--scan-when-stuck 10 --stuck-climb 8,6 with the nodes' options against those options alone; climb-rule.txt)
#   bash docs/results/arrival-val-check.sh w4     (student-w4 in the pair, against student-r2, both with the climb's options; woods-round2-rule.txt)
set -euo pipefail
cd "$(dirname "$0")"
node - "${1:?usage: arrival-val-check.sh arrival | commit | guarded | guarded-commit | commit-plain | scan | climb | w4}" <<'JS'
const fs = require("fs");
const FAMILIES = [["default", "val-240-from-8000", 240], ["urban", "urban-val-120-from-10000", 120], ["trees_only", "trees-val-120-from-10000", 120]];
// The pair without the option on these seeds (docs/coevolution.md, twenty-eighth session's table).
const WITHOUT = { default: [35, 423], urban: [18, 200], trees_only: [9, 123] };
const read = (name, stem, flights) => {
  const rows = fs.readFileSync(`eval-${name}-${stem}.txt`, "utf8").split("\n").filter((l) => l.startsWith("| coevo_student_harness |"));
  if (rows.length !== 2) throw new Error(`eval-${name}-${stem}.txt: ${rows.length} rows, expected nominal and perturbed`);
  let collisions = 0, goals = 0;
  for (const r of rows) {
    const [c, s] = r.split("|").slice(2, 4).map((x) => parseFloat(x));
    collisions += Math.round((c / 100) * flights);
    goals += Math.round((s / 100) * flights);
  }
  return [collisions, goals];
};
const which = process.argv[2];
const MODES = {
  arrival: ["arrival-6", null], guarded: ["arrival-6-guarded", null], commit: ["arrival-6-commit-0.3,12,each", "arrival-6"],
  "guarded-commit": ["arrival-6-guarded-commit-0.3,12,each", "arrival-6-guarded"], "commit-plain": ["arrival-6-guarded-commit-0.3,12,each", null],
  scan: ["scan-10-arrival-6-guarded-commit-0.3,12,each", "arrival-6-guarded-commit-0.3,12,each"],
  climb: ["scan-10-climb-8,6-arrival-6-guarded-commit-0.3,12,each", "arrival-6-guarded-commit-0.3,12,each"],
  w4: ["w4-scan-10-climb-8,6-arrival-6-guarded-commit-0.3,12,each", "scan-10-climb-8,6-arrival-6-guarded-commit-0.3,12,each"],
};
if (!(which in MODES)) throw new Error(`unknown "${which}", expected one of ${Object.keys(MODES).join(", ")}`);
const [cand, ref] = MODES[which];
let tc = 0, tg = 0, rc = 0, rg = 0, worst = -Infinity;
for (const [fam, stem, n] of FAMILIES) {
  const [c, g] = read(cand, stem, n);
  const [c0, g0] = ref === null ? WITHOUT[fam] : read(ref, stem, n);
  console.log(`${fam}: collisions ${c} (reference ${c0}), goals ${g} (reference ${g0})`);
  tc += c; tg += g; rc += c0; rg += g0;
  worst = Math.max(worst, c - c0);
}
const against = which === "arrival" || which === "guarded" || which === "scan" || which === "climb";
// w4 (a new student against the nodes' one): no more collisions and no fewer goals over the 960.
const [pass, rule] = which === "w4"
  ? [tc <= rc && worst <= 2 && tg >= rg, `collisions <= ${rc}, no family more than 2 above, goals >= ${rg}`]
  : against
    ? [tc <= rc + 3 && worst <= 2 && tg >= rg + 10, `collisions <= ${rc} + 3, no family more than 2 above, goals >= ${rg} + 10`]
    : [tc < rc && worst <= 2 && tg >= rg - 10, `collisions < ${rc}, no family more than 2 above, goals >= ${rg} - 10`];
console.log(`over the 960: collisions ${tc}, goals ${tg}; largest family excess ${worst}; rule (${rule}): ${pass ? "passes" : "fails"}`);
JS
