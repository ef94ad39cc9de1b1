#!/usr/bin/env bash
# Per-seed and five-seed mean cell AP of transfer --real --partner outputs: bash docs/results/partner-means.sh <prefix>
# reads docs/results/<prefix>{1..5}.txt (e.g. transfer-real-partner-notta-s) and prints the rows all, all partner,
# all soup, all ensemble for PLDU and PLDM.
set -euo pipefail
cd "$(dirname "$0")"
node -e '
const fs = require("fs"); const prefix = process.argv[1]; const rows = new Map();
for (let s = 1; s <= 5; s++) for (const l of fs.readFileSync(`${prefix}${s}.txt`, "utf8").split("\n")) {
  const m = l.match(/^(all(?: partner| soup| ensemble)?)\s+(PLD[UM])\s+\d+\s+([\d.]+)/); if (!m) continue;
  const k = `${m[1].padEnd(13)} ${m[2]}`; if (!rows.has(k)) rows.set(k, []); rows.get(k).push(Number(m[3]));
}
for (const [k, a] of rows) console.log(`${k}  seeds ${a.map((x) => x.toFixed(3)).join(" ")}  mean ${(a.reduce((x, y) => x + y, 0) / a.length).toFixed(3)}  >= 0.85 in ${a.filter((x) => x >= 0.85).length} of ${a.length}`);' "$1"
