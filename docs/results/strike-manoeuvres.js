// Thirty-ninth session: how each row's strikes were flown, from an `eval --harness --attribute-strikes` output. Every
// strike's last 3 s (12 decisions, as the eval prints them) is sorted by its manoeuvres: "cruise" (cruise or slow at
// every decision), "hover" (hover at 8 or more), "climb and descend" (both at least once: a vertical reversal),
// "one vertical way" (climbs or descends, not both), "yaw" (the rest: cruise, hover and yaw only); with how much of the
// struck obstacle's near cells the planner saw flagged (threat >= 0.5) over those frames.
// It reads both attribution formats; vertical-reversals.sh (sixteenth session) reads only the older one.
//   node docs/results/strike-manoeuvres.js EVAL.txt [EVAL.txt ...]
const { strikeDetails } = require("./strike-lists");

function pattern(m) {
  if (m.length === 0) return "unknown";
  if (/^[cs]+$/.test(m)) return "cruise";
  if ((m.match(/h/g) ?? []).length >= 8) return "hover";
  const up = m.includes("u"), down = m.includes("d");
  if (up && down) return "climb and descend";
  return up || down ? "one vertical way" : "yaw";
}

const median = (xs) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error("usage: node docs/results/strike-manoeuvres.js EVAL.txt [EVAL.txt ...] (outputs of eval --harness --attribute-strikes)");
  process.exit(2);
}
for (const file of files) {
  const details = strikeDetails(file);
  if (Object.keys(details).length === 0) throw new Error(`${file}: no strike lists (was it flown with --attribute-strikes?)`);
  console.log(`== ${file}`);
  for (const [row, conds] of Object.entries(details)) {
    for (const [cond, { strikes }] of Object.entries(conds)) {
      const groups = {};
      for (const s of strikes) (groups[pattern(s.manoeuvres)] ??= []).push(s);
      const parts = Object.entries(groups).sort((a, b) => b[1].length - a[1].length).map(([p, g]) => {
        const kinds = ["wire", "branch"].map((k) => `${g.filter((s) => s.kind === k).length} ${k}`).join(", ");
        return `${p} ${g.length} (${kinds}; its cells flagged, median ${median(g.map((s) => s.flaggedShare))} %)`;
      });
      console.log(`${cond} ${row}: ${strikes.length} strikes; ${parts.join("; ") || "none"}`);
    }
  }
}
