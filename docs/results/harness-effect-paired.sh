#!/usr/bin/env bash
# Thirty-fifth session (docs/results/arrival-guarded-commit-rows-plan.txt): the harness's own effect and its share of
# the gain, from `eval --harness --attribute-strikes` outputs on the same seeds: the ON row (coevo_student_harness) in
# ON_FILE, the OFF row (coevo_student_off) and BC (bc_student) in ROWS_FILE. Per condition: flights struck ON / OFF / BC,
# struck only ON and only OFF with McNemar's exact p, and the harness's share (OFF - ON) / (BC - ON). Run after npm run build.
#   bash docs/results/harness-effect-paired.sh ON_FILE ROWS_FILE
set -euo pipefail
cd "$(dirname "$0")/../.."
node - "${1:?ON_FILE}" "${2:?ROWS_FILE}" <<'JS'
const { strikeLists, pairedEffect } = require("./docs/results/strike-lists.js");
const on = strikeLists(process.argv[2]).coevo_student_harness, rows = strikeLists(process.argv[3]);
const off = rows.coevo_student_off, bc = rows.bc_student;
if (!on || !off || !bc) throw new Error("need coevo_student_harness in ON_FILE and coevo_student_off, bc_student in ROWS_FILE, each with --attribute-strikes");
for (const cond of ["nominal", "perturbed"]) {
  const [a, b, c] = [on[cond], off[cond], bc[cond]];
  if (a.seeds !== b.seeds || a.seeds !== c.seeds) throw new Error(`${cond}: ${a.seeds}, ${b.seeds}, ${c.seeds} seeds`);
  console.log(`${cond}: struck ON ${a.struck.size}, OFF ${b.struck.size}, BC ${c.struck.size} of ${a.seeds}; ${pairedEffect(a.struck, b.struck, c.struck.size)}`);
}
JS
