// Pairs the wire/branch strikes of two rows flown with `eval --harness --attribute-strikes` on the same seeds, per
// condition and over both, McNemar exact (fourteenth session; the thirteenth's linegate-pairing.sh made general).
// Usage, from the repository root after npm run build: node docs/results/strike-pairing.js A.txt rowA B.txt rowB [nameA nameB]
const fs = require("fs");
const { mcnemarExactP } = require("../../dist/src/harness/eval/harnessRows");
const [fileA, rowA, fileB, rowB, nameA = rowA, nameB = rowB] = process.argv.slice(2);
if (rowB === undefined) throw new Error("usage: node docs/results/strike-pairing.js A.txt rowA B.txt rowB");
// Strike seeds per condition of one row, read from its "what the planner saw" block.
function strikes(file, row) {
  const out = { nominal: new Set(), perturbed: new Set() };
  let cond;
  let inRow = false;
  let seen = false;
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    const c = line.match(/^(nominal|perturbed): /);
    if (c) cond = c[1];
    if (/^\w+: what the planner saw/.test(line)) {
      inRow = line.startsWith(`${row}:`);
      seen ||= inRow;
    } else if (/^(paired|nominal:|perturbed:|\w+: applied correction)/.test(line)) inRow = false;
    const m = line.match(/^- seed (\d+): (wire|branch) at/);
    if (m && inRow) out[cond].add(+m[1]);
  }
  if (!seen) throw new Error(`${file}: no strike attribution for row ${row}`);
  return out;
}
const a = strikes(fileA, rowA);
const b = strikes(fileB, rowB);
let onlyA = 0;
let onlyB = 0;
for (const cond of ["nominal", "perturbed"]) {
  const x = [...a[cond]].filter((s) => !b[cond].has(s)).sort((p, q) => p - q);
  const y = [...b[cond]].filter((s) => !a[cond].has(s)).sort((p, q) => p - q);
  console.log(`${cond}: ${nameA} ${a[cond].size} strikes, ${nameB} ${b[cond].size}; only ${nameA} ${x.length} [${x.join(", ")}], only ${nameB} ${y.length} [${y.join(", ")}]; McNemar exact p = ${mcnemarExactP(x.length, y.length).toFixed(3)}`);
  onlyA += x.length;
  onlyB += y.length;
}
console.log(`both conditions: only ${nameA} ${onlyA}, only ${nameB} ${onlyB}; McNemar exact p = ${mcnemarExactP(onlyA, onlyB).toFixed(3)}`);
