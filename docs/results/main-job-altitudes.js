// Thirty-seventh session: per flight of a main job's summary.json (drone-harness sim --out DIR), its outcome, the
// distance flown and the highest and last altitude of its recorded path (series.z, m): whether the nodes climbed.
//   node docs/results/main-job-altitudes.js DIR/summary.json [...]
const fs = require("fs");
const files = process.argv.slice(2);
if (files.length === 0) throw new Error("usage: node docs/results/main-job-altitudes.js DIR/summary.json [...]");
for (const file of files) {
  const json = JSON.parse(fs.readFileSync(file, "utf8"));
  if (!Array.isArray(json.flights)) throw new Error(`${file}: no flights; expected a main job's summary.json`);
  console.log(`${file}: ${json.command ?? ""}`);
  for (const f of json.flights) {
    const z = f.series?.z;
    if (!Array.isArray(z) || z.length === 0) throw new Error(`${file}: seed ${f.seed} ${f.arm}: no series.z`);
    console.log(`  seed ${f.seed} harness ${f.arm}: ${f.status}, ${f.distance_m.toFixed(1)} m flown, altitude max ${Math.max(...z).toFixed(1)} m, last ${z[z.length - 1].toFixed(1)} m`);
  }
}
