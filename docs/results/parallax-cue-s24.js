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
const path = require("node:path");
const dist = (p) => require(path.resolve("dist/src", p));
const { loadScenarioFile, splitOfSeed } = require(path.resolve("dist/sim"));
const { initBackend } = dist("harness/backend");
const { loadTeacher, loadSpatialHarness } = dist("harness/modelfile");
const { PlannerPilot } = dist("harness/eval/PlannerPilot");
const { flyClosedLoop } = dist("harness/eval/flyClosedLoop");
const { makeNavigation } = dist("harness/data/DroneEnvironment");
const { nearClassCells, wireGapCells } = dist("harness/eval/CellLabels");
const { simEnvironmentFactory } = dist("harness/data/simEnvironment");
const { SeedSource } = dist("harness/data/SeedSplit");
const { FULL_CONFIG } = dist("harness/training/trainConfig");
const { STATE_DIM } = dist("harness/models/stateVector");
const { DETECTION_CLASSES } = dist("harness/actions");
const { FAR_DEPTH_M: FAR } = dist("harness/spatial/warp");

function predict(prev, W, H, cam, m, out) {
  // backward warp: out(q) = prev(p(q)); forward d, yaw a (left), pitch b (nose down), climb h (up)
  const tilt = cam.pitchDown_rad + m.bodyPitch;
  for (let y = 0; y < H; y++) {
    const e = tilt + Math.atan((y + 0.5 - cam.cy) / cam.f_px);
    const z = e > 1e-3 ? Math.min(FAR, Math.max(0.5, m.alt) / Math.sin(e)) : FAR;
    const k = Math.max(0.2, (z - m.d) / z);
    let vy = (y + 0.5 - cam.cy) * k + cam.cy - 0.5 + cam.f_px * m.b - cam.f_px * m.h / z;
    vy = Math.min(H - 1, Math.max(0, vy));
    const sy0 = Math.floor(vy), sy1 = Math.min(H - 1, sy0 + 1), ay = vy - sy0;
    for (let x = 0; x < W; x++) {
      let vx = (x + 0.5 - cam.cx) * k + cam.cx - 0.5 - cam.f_px * m.a;
      vx = Math.min(W - 1, Math.max(0, vx));
      const sx0 = Math.floor(vx), sx1 = Math.min(W - 1, sx0 + 1), ax = vx - sx0;
      const t = prev[sy0 * W + sx0] * (1 - ax) + prev[sy0 * W + sx1] * ax;
      const b = prev[sy1 * W + sx0] * (1 - ax) + prev[sy1 * W + sx1] * ax;
      out[y * W + x] = t * (1 - ay) + b * ay;
    }
  }
}

function ap(scores, labels) {
  const idx = scores.map((s, i) => i).sort((i, j) => scores[j] - scores[i]);
  let tp = 0, sum = 0; const P = labels.reduce((a, b) => a + b, 0);
  idx.forEach((i, r) => { if (labels[i]) { tp++; sum += tp / (r + 1); } });
  return P ? sum / P : NaN;
}

(async () => {
  await initBackend({ warn: () => undefined });
  const args = process.argv.slice(2);
  const flights = Number(args[0] ?? 12), first = Number(args[1] ?? 5500), lag = Number(args[2] ?? 1);
  const scenario = loadScenarioFile("sim/scenarios/default.yaml");
  const detector = (await loadTeacher("models/coevo/student-r2")).model;
  const model = (await loadSpatialHarness("models/coevo/harness-gap")).model;
  const seeds = new SeedSource("train", splitOfSeed).seeds(flights, first);
  const factory = simEnvironmentFactory(scenario, "train", { controlPeriod_s: FULL_CONFIG.controlPeriod_s });
  const wire = DETECTION_CLASSES.indexOf("wire");
  const inner = new PlannerPilot({ type: "detector", detector, harness: { model, apply: true, options: { regionClip: 8 } } });
  let sumRes = 0, sumId = 0, nRes = 0;
  const S = { risk: [], res: [], resGap: [], tex: [], texGap: [], band4: [], band8: [], band16: [], bandRow: [], lab: [] };
  let hist = [];
  let scratch, near, gap, cur, pred;
  const pilot = {
    needsImage: true, needsTruth: true,
    reset: () => { inner.reset(); hist = []; },
    act: (rgb, state, env, truth) => {
      const nav = env.navigation(makeNavigation());
      const a = inner.act(rgb, state, env, truth);
      const hr = inner.harnessRuntime, det = inner.detectorRuntime;
      const W = env.width, H = env.height, cols = W / 8, rows = H / 8;
      if (!cur) { cur = new Float32Array(W * H); pred = new Float32Array(W * H); scratch = new Uint8Array(W * H); near = new Uint8Array(rows * cols); gap = new Uint8Array(rows * cols); }
      const grey = Float32Array.from(hr.grey);
      hist.push({ grey, nav: { ...nav }, t: env.time_s });
      if (hist.length > lag + 1) hist.shift();
      if (hist.length < lag + 1) return a;
      const p = hist[0];
      let d = 0; // distance along the heading over the lag
      for (let i = 1; i < hist.length; i++) d += 0.5 * (hist[i].nav.forwardSpeed_m_s + hist[i - 1].nav.forwardSpeed_m_s) * (hist[i].t - hist[i - 1].t);
      const wrap = (x) => Math.atan2(Math.sin(x), Math.cos(x));
      predict(p.grey, W, H, hr.camera, { d: Math.max(0, d), a: wrap(nav.yaw_rad - p.nav.yaw_rad), b: nav.pitch_rad - p.nav.pitch_rad, h: nav.altitude_m - p.nav.altitude_m, alt: nav.altitude_m, bodyPitch: nav.pitch_rad }, pred);
      for (let i = 0; i < W * H; i++) { sumRes += Math.abs(grey[i] - pred[i]); sumId += Math.abs(grey[i] - p.grey[i]); } nRes += W * H;
      const threat = det.threat;
      nearClassCells(truth.visibleMask, wire, truth.depth, { width: W, height: H, cell_px: 8 }, nav.forwardSpeed_m_s, scratch, near);
      wireGapCells(near, threat, gap);
      const R = rows / 4, C = cols / 4;
      for (let rr = 0; rr < R; rr++) for (let rc = 0; rc < C; rc++) {
        let res = 0, resGap = 0, tex = 0, texGap = 0, lab = 0;
        const band = { b4: 0, b8: 0, b16: 0, bR: 0 };
        for (let cy = rr * 4; cy < rr * 4 + 4; cy++) for (let cx = rc * 4; cx < rc * 4 + 4; cx++) {
          const c = cy * cols + cx;
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
        S.risk.push(hr.risk[rr * C + rc]); S.res.push(res); S.resGap.push(resGap); S.tex.push(tex); S.texGap.push(texGap); S.lab.push(lab); S.band4.push(band.b4); S.band8.push(band.b8); S.band16.push(band.b16); S.bandRow.push(band.bR);
      }
      return a;
    },
  };
  let col = 0;
  for (const seed of seeds) {
    const r = flyClosedLoop(factory(seed, { perturbed: false }), pilot, STATE_DIM);
    if (r.outcome.type === "collision") col++;
  }
  const P = S.lab.reduce((a, b) => a + b, 0);
  console.log(`${seeds.length} train seeds from ${first}, lag ${lag}, ${col} collisions; ${S.lab.length} regions, ${P} wire-gap regions (rate ${(P / S.lab.length).toFixed(4)})`);
  console.log(`  mean |residual| warped ${(sumRes / nRes).toFixed(2)}, identity ${(sumId / nRes).toFixed(2)}`);
  for (const k of ["risk", "res", "resGap", "tex", "texGap", "band4", "band8", "band16", "bandRow"]) console.log(`  AP ${k}: ${ap(S[k], S.lab).toFixed(3)}`);
  // combined: risk * residual rank
  const comb = S.risk.map((r, i) => r * S.resGap[i]);
  console.log(`  AP risk*resGap: ${ap(comb, S.lab).toFixed(3)}`);
  const comb2 = S.risk.map((r, i) => r * S.texGap[i]);
  console.log(`  AP risk*texGap: ${ap(comb2, S.lab).toFixed(3)}`);
  for (const k of ["band4", "band8", "band16", "bandRow"]) console.log(`  AP risk*${k}: ${ap(S.risk.map((r, i) => r * S[k][i]), S.lab).toFixed(3)}; risk+${k}: ${ap(S.risk.map((r, i) => r + S[k][i]), S.lab).toFixed(3)}`);
  detector.dispose();
})();
