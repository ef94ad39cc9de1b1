// Twenty-fourth session, a diagnostic for issue 13 (it chooses nothing): does the motion of the image tell where the
// wire gaps are? The residual between each frame and the previous one (lag control steps back) warped to it by the
// flat-ground model of warp.ts (forward move, yaw, pitch, and here also the climb: a point at depth Z moves f h / Z px)
// is large where the scene is nearer than the ground behind it (motion parallax: wires, crowns) and small where the
// model holds. Per region (4 x 4 cells) its largest cell mean, alone and times (1 - the student's near-threat), is
// scored by AP against the wire-gap regions (a near wire cell the student leaves under 0.5: fit-harness --risk-target
// wire-gap), beside the shipped harness's own risk and the frame's gradient (texture) alone. Flown with the shipped
// pair (student-r2 + harness-gap, clip 8) on train seeds (fit-harness's rollout seeds, from 5500), nominal.
// Also scored, the same way: a band context (the student's largest near-threat within K cells along the cell's row,
// +-1 row, times (1 - the cell's own), K = 4, 8, 16 and the whole row: wires cross the path, so a gap lies in a band
// the student flags elsewhere), alone and with the risk.
// Run from the repository root after npm run build: node docs/results/parallax-cue-s24.js FLIGHTS FIRST_SEED LAG
const { ap, regionCells, flatGroundWarp, flyShippedPair } = require("./shipped-pair-frames");

(async () => {
  const flights = Number(process.argv[2] ?? 12), first = Number(process.argv[3] ?? 5500), lag = Number(process.argv[4] ?? 1);
  let sumRes = 0, sumId = 0, nRes = 0;
  const S = { risk: [], res: [], resGap: [], tex: [], texGap: [], band4: [], band8: [], band16: [], bandRow: [], lab: [] };
  let hist = [];
  let pred;
  const wrap = (x) => Math.atan2(Math.sin(x), Math.cos(x));
  const { seeds, collisions } = await flyShippedPair(flights, first, ({ env, nav, W, H, rows, cols, R, C, threat, hr, gap }) => {
    if (!pred) pred = new Float32Array(W * H);
    const grey = Float32Array.from(hr.grey);
    hist.push({ grey, nav: { ...nav }, t: env.time_s });
    if (hist.length > lag + 1) hist.shift();
    if (hist.length < lag + 1) return;
    const p = hist[0];
    let d = 0; // distance along the heading over the lag
    for (let i = 1; i < hist.length; i++) d += 0.5 * (hist[i].nav.forwardSpeed_m_s + hist[i - 1].nav.forwardSpeed_m_s) * (hist[i].t - hist[i - 1].t);
    flatGroundWarp(p.grey, W, H, hr.camera, { d: Math.max(0, d), a: wrap(nav.yaw_rad - p.nav.yaw_rad), b: nav.pitch_rad - p.nav.pitch_rad, h: nav.altitude_m - p.nav.altitude_m, alt: nav.altitude_m, bodyPitch: nav.pitch_rad }, pred);
    for (let i = 0; i < W * H; i++) { sumRes += Math.abs(grey[i] - pred[i]); sumId += Math.abs(grey[i] - p.grey[i]); } nRes += W * H;
    for (let q = 0; q < R * C; q++) {
      let res = 0, resGap = 0, tex = 0, texGap = 0, lab = 0;
      const band = { b4: 0, b8: 0, b16: 0, bR: 0 };
      for (const c of regionCells(q, cols)) {
        const cy = Math.floor(c / cols), cx = c % cols;
        let s = 0, g = 0;
        for (let y = cy * 8; y < cy * 8 + 8; y++) for (let x = cx * 8; x < cx * 8 + 8; x++) {
          s += Math.abs(grey[y * W + x] - pred[y * W + x]);
          if (x + 1 < W && y + 1 < H) g += Math.abs(grey[y * W + x + 1] - grey[y * W + x]) + Math.abs(grey[(y + 1) * W + x] - grey[y * W + x]);
        }
        s /= 64; g /= 64;
        res = Math.max(res, s); tex = Math.max(tex, g);
        resGap = Math.max(resGap, s * (1 - threat[c])); texGap = Math.max(texGap, g * (1 - threat[c]));
        if (gap[c]) lab = 1;
        for (const [K, key] of [[4, "b4"], [8, "b8"], [16, "b16"], [cols, "bR"]]) {
          let m = 0;
          for (let yy = Math.max(0, cy - 1); yy <= Math.min(rows - 1, cy + 1); yy++) for (let xx = Math.max(0, cx - K); xx <= Math.min(cols - 1, cx + K); xx++) m = Math.max(m, threat[yy * cols + xx]);
          band[key] = Math.max(band[key], m * (1 - threat[c]));
        }
      }
      S.risk.push(hr.risk[q]); S.res.push(res); S.resGap.push(resGap); S.tex.push(tex); S.texGap.push(texGap); S.lab.push(lab); S.band4.push(band.b4); S.band8.push(band.b8); S.band16.push(band.b16); S.bandRow.push(band.bR);
    }
  }, () => { hist = []; });
  const P = S.lab.reduce((a, b) => a + b, 0);
  console.log(`${seeds.length} train seeds from ${first}, lag ${lag}, ${collisions} collisions; ${S.lab.length} regions, ${P} wire-gap regions (rate ${(P / S.lab.length).toFixed(4)})`);
  console.log(`  mean |residual| warped ${(sumRes / nRes).toFixed(2)}, identity ${(sumId / nRes).toFixed(2)}`);
  for (const k of ["risk", "res", "resGap", "tex", "texGap", "band4", "band8", "band16", "bandRow"]) console.log(`  AP ${k}: ${ap(S[k], S.lab).toFixed(3)}`);
  // combined: risk * residual rank
  const comb = S.risk.map((r, i) => r * S.resGap[i]);
  console.log(`  AP risk*resGap: ${ap(comb, S.lab).toFixed(3)}`);
  const comb2 = S.risk.map((r, i) => r * S.texGap[i]);
  console.log(`  AP risk*texGap: ${ap(comb2, S.lab).toFixed(3)}`);
  for (const k of ["band4", "band8", "band16", "bandRow"]) console.log(`  AP risk*${k}: ${ap(S.risk.map((r, i) => r * S[k][i]), S.lab).toFixed(3)}; risk+${k}: ${ap(S.risk.map((r, i) => r + S[k][i]), S.lab).toFixed(3)}`);
})();
