#!/usr/bin/env bash
# Thirteenth session: pairs the line gate's test strikes (docs/results/eval-linegate-r2-test-100.txt, --attribute-strikes)
# with the round-2 student OFF's on the same seeds (docs/results/eval-strikes-r2-test-100.txt; the same OFF flights as
# docs/results/eval-linefill2-r2-test-100.txt and eval-harness-r2-clip2-test-100.txt), per condition, McNemar exact.
# Run from the repository root after npm run build.
set -euo pipefail
node -e '
const fs = require("fs");
const { mcnemarExactP } = require("./dist/src/harness/eval/harnessRows");
// Strike seeds per condition of one row, read from its "what the planner saw" block.
function strikes(file, row) {
  const out = { nominal: new Set(), perturbed: new Set() };
  let cond, inRow = false;
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    const c = line.match(/^(nominal|perturbed): /); if (c) cond = c[1];
    if (/^\w+: what the planner saw/.test(line)) inRow = line.startsWith(row + ":");
    else if (/^(paired|nominal:|perturbed:)/.test(line)) inRow = false;
    const m = line.match(/^- seed (\d+): (wire|branch) at/);
    if (m && inRow) out[cond].add(+m[1]);
  }
  return out;
}
const off = strikes("docs/results/eval-strikes-r2-test-100.txt", "coevo_student_off");
const gate = strikes("docs/results/eval-linegate-r2-test-100.txt", "coevo_student_linegate");
let onlyGate = 0, onlyOff = 0;
for (const cond of ["nominal", "perturbed"]) {
  const a = [...gate[cond]].filter((s) => !off[cond].has(s)).sort((x, y) => x - y);
  const b = [...off[cond]].filter((s) => !gate[cond].has(s)).sort((x, y) => x - y);
  console.log(`${cond}: line gate ${gate[cond].size} strikes, OFF ${off[cond].size}; only line gate ${a.length} [${a.join(", ")}], only OFF ${b.length} [${b.join(", ")}]; McNemar exact p = ${mcnemarExactP(a.length, b.length).toFixed(3)}`);
  onlyGate += a.length; onlyOff += b.length;
}
console.log(`both conditions: only line gate ${onlyGate}, only OFF ${onlyOff}; McNemar exact p = ${mcnemarExactP(onlyGate, onlyOff).toFixed(3)}`);'
