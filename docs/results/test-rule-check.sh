#!/usr/bin/env bash
# Thirty-fifth session: the test part of a ship rule on the three families' test outputs (`eval --harness
# --attribute-strikes`, the ON row; default 300, urban 100, trees_only 100 test seeds), candidate against reference.
#   bash docs/results/test-rule-check.sh guarded CAND REF   (arrival-guarded-rule.txt: (a) strikes <= REF's,
#        (b) no family worse paired with McNemar p < 0.05, (c) more goals than REF)
#   bash docs/results/test-rule-check.sh commit CAND REF    (arrival-guarded-commit-rule.txt: (a) fewer strikes,
#        (b) as above, (c) success in each family and condition not more than 5 points below REF's)
#   bash docs/results/test-rule-check.sh scan CAND REF      (scan-rule.txt: as guarded)
#   bash docs/results/test-rule-check.sh climb CAND REF     (climb-rule.txt: as guarded)
# CAND, REF: the stem between "strikes-" and "-test-300.txt", e.g. arrival-6-guarded, no-option. Run after npm run build.
set -euo pipefail
cd "$(dirname "$0")/../.."
node - "${1:?usage: test-rule-check.sh guarded|commit|scan|climb CAND REF}" "${2:?CAND}" "${3:?REF}" <<'JS'
const fs = require("fs");
const { mcnemarExactP } = require("./dist/src/harness/eval/harnessRows");
const { strikeLists } = require("./docs/results/strike-lists.js");
const FAMILIES = [["default", "test-300", 300], ["urban", "urban-test-100", 100], ["trees_only", "trees-test-100", 100]];
const read = (stem, fam, flights) => {
  const file = `docs/results/strikes-${stem}-${fam}.txt`;
  const text = fs.readFileSync(file, "utf8").split("\n");
  const rows = text.filter((l) => l.startsWith("| coevo_student_harness |"));
  if (rows.length !== 2) throw new Error(`${file}: ${rows.length} rows of coevo_student_harness, expected nominal and perturbed`);
  const success = rows.map((r) => parseFloat(r.split("|")[3]));
  const lists = strikeLists(file).coevo_student_harness;
  if (!lists?.nominal || !lists.perturbed) throw new Error(`${file}: no strike lists (was it run with --attribute-strikes?)`);
  const struck = {};
  for (const cond of ["nominal", "perturbed"]) {
    if (lists[cond].seeds !== flights) throw new Error(`${file}: ${lists[cond].seeds} ${cond} seeds, expected ${flights}`);
    struck[cond] = lists[cond].struck;
  }
  return { success, struck, goals: success.reduce((g, p) => g + Math.round((p / 100) * flights), 0) };
};
const [given, cand, ref] = process.argv.slice(2);
if (given !== "guarded" && given !== "commit" && given !== "scan" && given !== "climb") throw new Error(`unknown mode "${given}", expected guarded, commit, scan or climb`);
// scan-rule.txt and climb-rule.txt take arrival-guarded-rule.txt's test criteria.
const mode = given === "scan" || given === "climb" ? "guarded" : given;
let sc = 0, sr = 0, gc = 0, gr = 0, worsePaired = false, successDrop = -Infinity;
for (const [fam, stem, flights] of FAMILIES) {
  const c = read(cand, stem, flights), r = read(ref, stem, flights);
  ["nominal", "perturbed"].forEach((cond, i) => {
    const onlyC = [...c.struck[cond]].filter((s) => !r.struck[cond].has(s)).sort((x, y) => x - y);
    const onlyR = [...r.struck[cond]].filter((s) => !c.struck[cond].has(s)).sort((x, y) => x - y);
    const p = mcnemarExactP(onlyC.length, onlyR.length);
    if (onlyC.length > onlyR.length && p < 0.05) worsePaired = true;
    successDrop = Math.max(successDrop, r.success[i] - c.success[i]);
    sc += c.struck[cond].size; sr += r.struck[cond].size;
    console.log(`${fam} ${cond}: strikes ${c.struck[cond].size} against ${r.struck[cond].size}; only candidate ${onlyC.length} [${onlyC.join(", ")}], only reference ${onlyR.length} [${onlyR.join(", ")}]; McNemar exact p = ${p.toFixed(3)}; success ${c.success[i].toFixed(1)} against ${r.success[i].toFixed(1)} %`);
  });
  gc += c.goals; gr += r.goals;
}
const a = mode === "guarded" ? sc <= sr : sc < sr;
const cOk = mode === "guarded" ? gc > gr : successDrop <= 5;
console.log(`over the 1000: strikes ${sc} against ${sr}, goals ${gc} against ${gr}, largest success drop ${successDrop.toFixed(1)} points`);
console.log(`(a) ${mode === "guarded" ? "strikes <= reference's" : "fewer strikes"}: ${a ? "met" : "not met"}; (b) no family worse paired (p < 0.05): ${worsePaired ? "not met" : "met"}; (c) ${mode === "guarded" ? "more goals" : "success within 5 points everywhere"}: ${cOk ? "met" : "not met"}; rule: ${a && !worsePaired && cOk ? "passes" : "fails"}`);
JS
