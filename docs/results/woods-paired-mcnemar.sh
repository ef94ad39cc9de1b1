#!/usr/bin/env bash
# Thirty-third session: pairs the wire/branch strikes of two `eval --harness --attribute-strikes` outputs (one row each,
# the same seeds) per condition: flights struck only in A, only in B, McNemar's exact p (src/harness/eval/harnessRows.ts).
# docs/results/woods-paired-plan.txt. Run after npm run build.
#   bash docs/results/woods-paired-mcnemar.sh A.txt B.txt
set -euo pipefail
cd "$(dirname "$0")/../.."
node - "$1" "$2" <<'JS'
const fs = require("fs");
const { mcnemarExactP } = require("./dist/src/harness/eval/harnessRows");
const strikes = (file) => {
  const out = {};
  let cond;
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    const head = /^(nominal|perturbed): (\d+) /.exec(line);
    if (head) out[(cond = head[1])] = { seeds: Number(head[2]), struck: new Set() };
    const s = /^- seed (\d+): (wire|branch) at /.exec(line);
    if (s && cond) out[cond].struck.add(Number(s[1]));
  }
  return out;
};
const [a, b] = [strikes(process.argv[2]), strikes(process.argv[3])];
for (const cond of ["nominal", "perturbed"]) {
  if (!a[cond] || !b[cond]) continue;
  if (a[cond].seeds !== b[cond].seeds) throw new Error(`${cond}: ${a[cond].seeds} against ${b[cond].seeds} seeds`);
  const onlyA = [...a[cond].struck].filter((s) => !b[cond].struck.has(s)).sort((x, y) => x - y);
  const onlyB = [...b[cond].struck].filter((s) => !a[cond].struck.has(s)).sort((x, y) => x - y);
  console.log(`${cond}: A ${a[cond].struck.size}, B ${b[cond].struck.size} of ${a[cond].seeds}; only A ${onlyA.length} [${onlyA.join(", ")}], only B ${onlyB.length} [${onlyB.join(", ")}]; McNemar exact p = ${mcnemarExactP(onlyA.length, onlyB.length).toFixed(3)}`);
}
JS
