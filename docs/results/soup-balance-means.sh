#!/usr/bin/env bash
# Sixteenth session: per-seed and five-seed mean cell AP of the "all" rows of transfer-real-soup-balance-s{1..5}.txt.
set -euo pipefail
cd "$(dirname "$0")"
node -e '
const fs = require("fs"); const r = { PLDU: [], PLDM: [] };
for (let s = 1; s <= 5; s++) for (const l of fs.readFileSync(`transfer-real-soup-balance-s${s}.txt`, "utf8").split("\n")) {
  const m = l.match(/^all\s+(PLD[UM])\s+\d+\s+([\d.]+)/); if (m) r[m[1]].push(Number(m[2]));
}
for (const k of ["PLDU", "PLDM"]) {
  const a = r[k]; const mean = a.reduce((x, y) => x + y, 0) / a.length;
  console.log(`${k}: ${a.map((x) => x.toFixed(3)).join(" / ")}; mean ${mean.toFixed(3)}; seeds >= 0.85: ${a.filter((x) => x >= 0.85).length} of ${a.length}`);
}'
