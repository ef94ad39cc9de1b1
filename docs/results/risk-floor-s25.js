// Twenty-fifth session, a diagnostic for issue 13 (it chooses nothing, flies nothing new): where does the shipped
// harness's push land, and would a floor on its risk aim it better? The wire-gap risk is trained with positives
// weighted by negatives / positives (about 46), so r is far above the gap's probability and most regions carry
// some push. For a floor tau the region's risk becomes max(0, r - tau) / (1 - tau) (tau 0 = the shipped harness);
// every cell's delta is the flight's own delta scaled by r' / r, the region re-clipped to 8, and the planner's
// threat t' = sigmoid(logit(t) - delta). Counted per frame, open loop (the flight is the shipped pair's, so lambda,
// the alarm and the path are those of tau 0): gap cells (a near wire cell the student leaves under 0.5) lifted to
// >= 0.5 ("filled"), and cells with no near structure of any class under 0.5 lifted to >= 0.5 ("false flags"), and
// the risk's quantiles on gap and other regions. Flown with the shipped pair (student-r2 + harness-gap, clip 8) on
// train seeds (fit-harness's rollout seeds, from 5500), nominal.
// Run from the repository root after npm run build: node docs/results/risk-floor-s25.js FLIGHTS FIRST_SEED
const { ap, regionCells, flyShippedPair } = require("./shipped-pair-frames");

(async () => {
  const flights = Number(process.argv[2] ?? 12), first = Number(process.argv[3] ?? 5500);
  const TAUS = [0, 0.3, 0.5, 0.6, 0.7, 0.8, 0.9];
  const CLIP = 8;
  const cnt = TAUS.map(() => ({ filled: 0, falseFlags: 0 }));
  let gapCells = 0, clearCells = 0, frames = 0, dScaled;
  const rPos = [], rNeg = [];
  const logit = (p) => Math.log(Math.max(1e-7, p) / Math.max(1e-7, 1 - p));
  const { seeds, collisions } = await flyShippedPair(flights, first, ({ cols, R, C, threat, hr, nearAny, gap }) => {
    if (!dScaled) dScaled = new Float32Array(gap.length);
    frames++;
    for (let c = 0; c < gap.length; c++) { if (gap[c]) gapCells++; else if (!nearAny[c] && threat[c] < 0.5) clearCells++; }
    for (let q = 0; q < R * C; q++) (regionCells(q, cols).some((c) => gap[c]) ? rPos : rNeg).push(hr.risk[q]);
    TAUS.forEach((tau, k) => {
      for (let q = 0; q < R * C; q++) {
        const r = hr.risk[q], f = r > tau && r > 0 ? (r - tau) / (1 - tau) / r : 0, cells = regionCells(q, cols);
        let ss = 0;
        for (const c of cells) { dScaled[c] = hr.delta[c] * f; ss += dScaled[c] ** 2; }
        const sc = Math.sqrt(ss) > CLIP ? CLIP / Math.sqrt(ss) : 1;
        for (const c of cells) {
          if (threat[c] >= 0.5 || 1 / (1 + Math.exp(-(logit(threat[c]) - dScaled[c] * sc))) < 0.5) continue;
          if (gap[c]) cnt[k].filled++; else if (!nearAny[c]) cnt[k].falseFlags++;
        }
      }
    });
  });
  const q = (v, p) => { const s = Float32Array.from(v).sort(); return s[Math.min(s.length - 1, Math.floor(p * s.length))].toFixed(3); };
  console.log(`${seeds.length} train seeds from ${first}, ${collisions} collisions; ${frames} frames; ${gapCells} gap cells, ${clearCells} clear cells under 0.5`);
  console.log(`  risk on gap regions (${rPos.length}): p10 ${q(rPos, 0.1)} p25 ${q(rPos, 0.25)} p50 ${q(rPos, 0.5)} p75 ${q(rPos, 0.75)} p90 ${q(rPos, 0.9)}`);
  console.log(`  risk on other regions (${rNeg.length}): p10 ${q(rNeg, 0.1)} p25 ${q(rNeg, 0.25)} p50 ${q(rNeg, 0.5)} p75 ${q(rNeg, 0.75)} p90 ${q(rNeg, 0.9)} p99 ${q(rNeg, 0.99)}`);
  TAUS.forEach((tau, k) => console.log(`  floor ${tau.toFixed(1)}: filled ${cnt[k].filled} (${(100 * cnt[k].filled / gapCells).toFixed(1)} % of gap cells), false flags ${cnt[k].falseFlags} (${(cnt[k].falseFlags / frames).toFixed(2)} per frame), filled per false flag ${(cnt[k].filled / Math.max(1, cnt[k].falseFlags)).toFixed(3)}`));
})();
