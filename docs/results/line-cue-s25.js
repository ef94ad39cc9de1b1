// Twenty-fifth session, a diagnostic for issue 13 (it chooses nothing): does a thin-line filter on the raw frame tell
// where the student's wire gaps are? The harness sees a cell's mean gradient (texture), which crowns and grass share
// with wires; a wire is a thin ridge or valley along one direction. Per pixel, for 4 orientations, the second
// difference across the line (offsets of 2 px along the normal: |I(p+n) + I(p-n) - 2 I(p)|) averaged along it over
// 7 px, minus the same across it (what an isotropic blob also gives), largest over orientations: the line
// response. Per cell its largest value; per region (4 x 4 cells) the largest of line(c) (1 - t(c)) (a line the
// student does not flag), raw and divided by the median of its cell row (the row's texture), scored by AP against
// the wire-gap regions (a near wire cell the student leaves under 0.5: fit-harness --risk-target wire-gap), alone
// and with the shipped harness's own risk. Flown with the shipped pair (student-r2 + harness-gap, clip 8) on train
// seeds (fit-harness's rollout seeds, from 5500), nominal.
// Run from the repository root after npm run build: node docs/results/line-cue-s25.js FLIGHTS FIRST_SEED
const { ap, regionCells, flyShippedPair } = require("./shipped-pair-frames");

(async () => {
  const flights = Number(process.argv[2] ?? 12), first = Number(process.argv[3] ?? 5500);
  const S = { risk: [], line: [], lineRow: [], lab: [] };
  // orientation: along (ux, uy), normal (-uy, ux), in whole pixels
  const ORI = [[1, 0], [1, 1], [0, 1], [-1, 1]];
  let lineCell;
  const { seeds, collisions } = await flyShippedPair(flights, first, ({ W, H, rows, cols, R, C, threat, hr, gap }) => {
    if (!lineCell) lineCell = new Float32Array(rows * cols);
    const g = hr.grey;
    const at = (x, y) => g[Math.min(H - 1, Math.max(0, y)) * W + Math.min(W - 1, Math.max(0, x))];
    // second difference across the line at p, for the orientation (ux, uy)
    const d2 = (x, y, ux, uy) => Math.abs(at(x - 2 * uy, y + 2 * ux) + at(x + 2 * uy, y - 2 * ux) - 2 * at(x, y));
    lineCell.fill(0);
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
      let best = 0;
      for (const [ux, uy] of ORI) {
        let along = 0, across = 0;
        for (let k = -3; k <= 3; k++) { along += d2(x + k * ux, y + k * uy, ux, uy); across += d2(x - k * uy, y + k * ux, ux, uy); }
        best = Math.max(best, (along - across) / 7);
      }
      const c = (y >> 3) * cols + (x >> 3);
      if (best > lineCell[c]) lineCell[c] = best;
    }
    const rowMed = new Float32Array(rows);
    for (let y = 0; y < rows; y++) { const v = Array.from(lineCell.subarray(y * cols, (y + 1) * cols)).sort((p, q) => p - q); rowMed[y] = v[cols >> 1] + 1; }
    for (let q = 0; q < R * C; q++) {
      let l1 = 0, l2 = 0, lab = 0;
      for (const c of regionCells(q, cols)) {
        l1 = Math.max(l1, lineCell[c] * (1 - threat[c])); l2 = Math.max(l2, (lineCell[c] / rowMed[Math.floor(c / cols)]) * (1 - threat[c]));
        if (gap[c]) lab = 1;
      }
      S.risk.push(hr.risk[q]); S.line.push(l1); S.lineRow.push(l2); S.lab.push(lab);
    }
  });
  const P = S.lab.reduce((a, b) => a + b, 0);
  console.log(`${seeds.length} train seeds from ${first}, ${collisions} collisions; ${S.lab.length} regions, ${P} wire-gap regions (rate ${(P / S.lab.length).toFixed(4)})`);
  for (const k of ["risk", "line", "lineRow"]) console.log(`  AP ${k}: ${ap(S[k], S.lab).toFixed(3)}`);
  const norm = (v) => { const m = v.reduce((p, q) => Math.max(p, q), 0) || 1; return v.map((x) => x / m); };
  for (const k of ["line", "lineRow"]) { const n = norm(S[k]); console.log(`  AP risk*${k}: ${ap(S.risk.map((r, i) => r * S[k][i]), S.lab).toFixed(3)}; risk+${k}/max: ${ap(S.risk.map((r, i) => r + n[i]), S.lab).toFixed(3)}; sqrt(risk*${k}/max): ${ap(S.risk.map((r, i) => Math.sqrt(r * n[i])), S.lab).toFixed(3)}`); }
})();
