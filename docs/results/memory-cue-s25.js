// Twenty-fifth session, a diagnostic for issue 13 (it chooses nothing): does the student's own detection of the
// frames before tell where this frame's wire gaps are? Wires flicker in a faint student's map; a cell the student
// flagged a moment ago and not now may be a gap. The student's near-threat grid of each of the last LAGS control steps
// is warped to the current frame by the flat-ground model (the warp of parallax-cue-s24.js, on the cell grid: the
// camera's focal length and centre divided by the cell size), the largest over the lags is the memory m(c), and
// per region (4 x 4 cells) the largest m(c) (1 - t(c)) (memory minus what the student sees now), also after a 3 x 3
// dilation of m (the flat-ground warp under-moves a wire above the ground), is scored by AP against the wire-gap
// regions (a near wire cell the student leaves under 0.5: fit-harness --risk-target wire-gap), alone and with the
// shipped harness's own risk. Also: the share of gap cells whose memory is >= 0.5 (what a memory could fill at best)
// and the share of the other cells under 0.5 now whose memory is >= 0.5 (what it would raise wrongly).
// Flown with the shipped pair (student-r2 + harness-gap, clip 8) on train seeds (fit-harness's rollout seeds, from
// 5500), nominal. Run from the repository root after npm run build: node docs/results/memory-cue-s25.js FLIGHTS FIRST_SEED LAGS
const { ap, regionCells, flatGroundWarp, flyShippedPair } = require("./shipped-pair-frames");

(async () => {
  const flights = Number(process.argv[2] ?? 12), first = Number(process.argv[3] ?? 5500), lags = Number(process.argv[4] ?? 3);
  const S = { risk: [], mem: [], memDil: [], lab: [] };
  const cnt = { gap: 0, gapMem: 0, gapMemDil: 0, other: 0, otherMem: 0, otherMemDil: 0 };
  let hist = [];
  let mem, memDil, warped;
  const wrap = (x) => Math.atan2(Math.sin(x), Math.cos(x));
  const { seeds, collisions } = await flyShippedPair(flights, first, ({ env, nav, rows, cols, R, C, threat, hr, gap }) => {
    if (!mem) { mem = new Float32Array(rows * cols); memDil = new Float32Array(rows * cols); warped = new Float32Array(rows * cols); }
    const cam = { pitchDown_rad: hr.camera.pitchDown_rad, f_px: hr.camera.f_px / 8, cx: hr.camera.cx / 8, cy: hr.camera.cy / 8 };
    mem.fill(0);
    let d = 0;
    for (let i = hist.length - 1; i >= 0; i--) {
      const p = hist[i], q = i + 1 < hist.length ? hist[i + 1] : { nav, t: env.time_s };
      d += 0.5 * (q.nav.forwardSpeed_m_s + p.nav.forwardSpeed_m_s) * (q.t - p.t);
      flatGroundWarp(p.threat, cols, rows, cam, { d: Math.max(0, d), a: wrap(nav.yaw_rad - p.nav.yaw_rad), b: nav.pitch_rad - p.nav.pitch_rad, h: nav.altitude_m - p.nav.altitude_m, alt: nav.altitude_m, bodyPitch: nav.pitch_rad }, warped);
      for (let c = 0; c < mem.length; c++) mem[c] = Math.max(mem[c], warped[c]);
    }
    for (let y = 0; y < rows; y++) for (let x = 0; x < cols; x++) {
      let m = 0;
      for (let yy = Math.max(0, y - 1); yy <= Math.min(rows - 1, y + 1); yy++) for (let xx = Math.max(0, x - 1); xx <= Math.min(cols - 1, x + 1); xx++) m = Math.max(m, mem[yy * cols + xx]);
      memDil[y * cols + x] = m;
    }
    hist.push({ threat: Float32Array.from(threat), nav: { ...nav }, t: env.time_s });
    if (hist.length > lags) hist.shift();
    for (let c = 0; c < gap.length; c++) {
      if (gap[c]) { cnt.gap++; if (mem[c] >= 0.5) cnt.gapMem++; if (memDil[c] >= 0.5) cnt.gapMemDil++; }
      else if (threat[c] < 0.5) { cnt.other++; if (mem[c] >= 0.5) cnt.otherMem++; if (memDil[c] >= 0.5) cnt.otherMemDil++; }
    }
    for (let q = 0; q < R * C; q++) {
      let m1 = 0, m2 = 0, lab = 0;
      for (const c of regionCells(q, cols)) {
        m1 = Math.max(m1, mem[c] * (1 - threat[c])); m2 = Math.max(m2, memDil[c] * (1 - threat[c]));
        if (gap[c]) lab = 1;
      }
      S.risk.push(hr.risk[q]); S.mem.push(m1); S.memDil.push(m2); S.lab.push(lab);
    }
  }, () => { hist = []; });
  const P = S.lab.reduce((a, b) => a + b, 0);
  const pc = (a, b) => (100 * a / b).toFixed(1);
  console.log(`${seeds.length} train seeds from ${first}, ${lags} lags, ${collisions} collisions; ${S.lab.length} regions, ${P} wire-gap regions (rate ${(P / S.lab.length).toFixed(4)})`);
  console.log(`  gap cells ${cnt.gap}: memory >= 0.5 ${pc(cnt.gapMem, cnt.gap)} %, dilated ${pc(cnt.gapMemDil, cnt.gap)} %; other cells under 0.5 ${cnt.other}: memory >= 0.5 ${pc(cnt.otherMem, cnt.other)} %, dilated ${pc(cnt.otherMemDil, cnt.other)} %`);
  for (const k of ["risk", "mem", "memDil"]) console.log(`  AP ${k}: ${ap(S[k], S.lab).toFixed(3)}`);
  for (const k of ["mem", "memDil"]) console.log(`  AP risk*${k}: ${ap(S.risk.map((r, i) => r * S[k][i]), S.lab).toFixed(3)}; risk+${k}: ${ap(S.risk.map((r, i) => r + S[k][i]), S.lab).toFixed(3)}; max: ${ap(S.risk.map((r, i) => Math.max(r, S[k][i])), S.lab).toFixed(3)}`);
})();
