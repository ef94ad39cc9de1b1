#!/usr/bin/env bash
# Fourteenth session: pairs the wire-gap harness's val strikes (docs/results/eval-harness-gap-clip{2,4,8}-val-60.txt,
# --attribute-strikes) with the round-2 student OFF's on the same 60 val seeds. OFF's collision seeds are read from
# docs/results/eval-truth-mix-r2-val-60.txt: its fill_wire row had no collision, so that pair's "only OFF" list is every
# OFF collision (checked below). McNemar exact, per condition and over both. Run from the repository root after npm run build.
set -euo pipefail
node -e '
const fs = require("fs");
const { mcnemarExactP } = require("./dist/src/harness/eval/harnessRows");
const off = {};
let cond;
for (const line of fs.readFileSync("docs/results/eval-truth-mix-r2-val-60.txt", "utf8").split("\n")) {
  const c = line.match(/^(nominal|perturbed): /); if (c) cond = c[1];
  const m = line.match(/^paired coevo_student_fill_wire .*only ON: (\d+) \[.*\], only OFF: \d+ \[(.*)\];/);
  if (!m) continue;
  if (m[1] !== "0") throw new Error("fill_wire had collisions: the only-OFF list is not all of OFF");
  off[cond] = new Set(m[2].split(", ").filter((s) => s !== "").map(Number));
}
function strikes(file) {
  const out = { nominal: new Set(), perturbed: new Set() };
  let cond;
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    const c = line.match(/^(nominal|perturbed): /); if (c) cond = c[1];
    const m = line.match(/^- seed (\d+): (wire|branch) at/);
    if (m) out[cond].add(+m[1]);
  }
  return out;
}
for (const clip of [2, 4, 8]) {
  const on = strikes(`docs/results/eval-harness-gap-clip${clip}-val-60.txt`);
  let a = 0, b = 0;
  for (const c of ["nominal", "perturbed"]) {
    const onlyOn = [...on[c]].filter((s) => !off[c].has(s)).sort((x, y) => x - y);
    const onlyOff = [...off[c]].filter((s) => !on[c].has(s)).sort((x, y) => x - y);
    console.log(`clip ${clip} ${c}: wire-gap harness ${on[c].size} strikes, OFF ${off[c].size}; only harness ${onlyOn.length} [${onlyOn.join(", ")}], only OFF ${onlyOff.length} [${onlyOff.join(", ")}]; McNemar exact p = ${mcnemarExactP(onlyOn.length, onlyOff.length).toFixed(3)}`);
    a += onlyOn.length; b += onlyOff.length;
  }
  console.log(`clip ${clip} both conditions: only harness ${a}, only OFF ${b}; McNemar exact p = ${mcnemarExactP(a, b).toFixed(3)}`);
}'
