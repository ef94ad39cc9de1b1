/**
 * Vision per-frame cost at 256x256 (issue 4 target: flow + warp (K = 3) + texture features under
 * 8 ms per frame on this machine), with a plain frame copy (one rgb8 256x256 frame, 196 KB)
 * measured in the same run as the reference, so the cost can be read as a multiple of it
 * elsewhere. Because Farneback at full resolution does not meet the target, cheaper settings are
 * measured against their accuracy (mean end-point error on the synthetic sub-pixel pair of the
 * tests). Also: Farneback vs pyramidal Lucas-Kanade on the pixels of a thin wire moving
 * differently from the background.
 */
import { loadavg } from "node:os";

import { FlowEstimator, type FlowEstimatorOptions } from "../src/vision/FlowEstimator";
import { loadOpenCv, type Cv } from "../src/vision/opencv";
import { render, smoothTexture, wire } from "../src/vision/synthetic";
import { VisionPipeline } from "../src/vision/VisionPipeline";

const W = 256;
const H = 256;
const FRAME_NS = 33_333_333n;

/**
 * Time per call of `fn` in ms: the fastest of 5 batches of `n / 5` calls (after `warm` warm-up
 * calls). The machine is shared, so the minimum batch mean is the least load-dependent figure.
 */
function timeMs(fn: (i: number) => void, n: number, warm = 5): number {
  for (let i = 0; i < warm; i++) fn(i);
  const per = Math.max(1, Math.floor(n / 5));
  let best = Infinity;
  let k = warm;
  for (let b = 0; b < 5; b++) {
    const t0 = performance.now();
    for (let i = 0; i < per; i++) fn(k++);
    best = Math.min(best, (performance.now() - t0) / per);
  }
  return best;
}

function meanEpe(flow: Float32Array, sx: number, sy: number, margin = 16): number {
  let s = 0;
  let n = 0;
  for (let y = margin; y < H - margin; y++) {
    for (let x = margin; x < W - margin; x++, n++) {
      const i = (y * W + x) * 2;
      s += Math.hypot(flow[i]! - sx, flow[i + 1]! - sy);
    }
  }
  return s / n;
}

type Config = { name: string; flow: Omit<FlowEstimatorOptions, "width" | "height"> };

const CONFIGS: Config[] = [
  { name: "256 L3 w15 it3 (OpenCV sample)", flow: { downscale: 1 } },
  { name: "256 L2 w9 it2", flow: { downscale: 1, farneback: { levels: 2, winsize: 9, iterations: 2 } } },
  { name: "128 L3 w15 it3 (default)", flow: { downscale: 2 } },
  { name: "128 L2 w9 it2", flow: { downscale: 2, farneback: { levels: 2, winsize: 9, iterations: 2 } } },
  { name: "128 L1 w9 it2", flow: { downscale: 2, farneback: { levels: 1, winsize: 9, iterations: 2 } } },
  { name: "64 L2 w9 it2", flow: { downscale: 4, farneback: { levels: 2, winsize: 9, iterations: 2 } } },
];

function rgbFromGrey(grey: Uint8Array): Uint8Array {
  const out = new Uint8Array(grey.length * 3);
  for (let i = 0; i < grey.length; i++) out.fill(grey[i]!, 3 * i, 3 * i + 3);
  return out;
}

async function costTable(cv: Cv, print: (line: string) => void): Promise<void> {
  const T = smoothTexture(7);
  const sx = 0.4;
  const sy = -0.3;
  const g0 = render(W, H, T);
  const g1 = render(W, H, (x, y) => T(x - sx, y - sy));
  const frames = [rgbFromGrey(g0), rgbFromGrey(g1)];
  const copyDst = new Uint8Array(W * H * 3);
  const n = 40;

  const refMs = timeMs((i) => copyDst.set(frames[i % 2] as Uint8Array), 2000, 50);
  print(`reference: plain rgb8 frame copy (${W}x${H}x3 bytes): ${(refMs * 1000).toFixed(1)} us`);
  print("");
  print("| flow setting | EPE px (synthetic 0.4,-0.3 px shift) | flow ms | full frame ms (rgb8 -> grey, flow, K=3 warps, Sobel) | x copy | < 8 ms |");
  print("|---|---|---|---|---|---|");
  for (const c of CONFIGS) {
    const fe = new FlowEstimator(cv, { width: W, height: H, ...c.flow });
    const flow = new Float32Array(W * H * 2);
    fe.compute(g0, g1, flow);
    const epe = meanEpe(flow, sx, sy);
    const flowMs = timeMs(() => fe.compute(g0, g1, flow), n);
    fe.dispose();
    const p = new VisionPipeline(cv, { width: W, height: H, flow: c.flow });
    const frameMs = timeMs(
      (i) => {
        const r = p.push({ width: W, height: H, encoding: "rgb8", step: W * 3, data: frames[i % 2] as Uint8Array }, { stampNs: BigInt(i + 1) * FRAME_NS, speedMps: 5 });
        if (i > 0 && r.status !== "scaled") throw new Error(`bench: unexpected rollout status ${r.status}`);
      },
      n,
    );
    p.dispose();
    print(`| ${c.name} | ${epe.toFixed(4)} | ${flowMs.toFixed(2)} | ${frameMs.toFixed(2)} | ${(frameMs / refMs).toFixed(0)} | ${frameMs < 8 ? "yes" : "no"} |`);
    await Promise.resolve();
  }

  // Breakdown of the default pipeline.
  const p = new VisionPipeline(cv, { width: W, height: H });
  const f32 = new cv.Mat(H, W, cv.CV_32FC1);
  const dst = new cv.Mat(H, W, cv.CV_32FC1);
  f32.data32F.set(g0);
  const flow = new Float32Array(W * H * 2).fill(0.7);
  const warpMs = timeMs(() => p.warper.warp(f32, flow, 1, dst), 200);
  const sobelMs = timeMs(() => p.textures.gradientMagnitude(dst), 200);
  print("");
  print(`default breakdown: one remap (bilinear, incl. map fill) ${warpMs.toFixed(2)} ms, one Sobel magnitude ${sobelMs.toFixed(2)} ms`);
  f32.delete();
  dst.delete();
  p.dispose();
}

/**
 * Thin structures: a 1-px dark wire at 30 deg moving by (1.2, 0.8) px in front of a low-contrast
 * background moving by (0.4, -0.3) px. Error on wire pixels (coverage > 0.5): full end-point error
 * and the error of the component normal to the wire (the only one observable along a straight
 * wire: the aperture problem).
 */
function thinStructures(cv: Cv, print: (line: string) => void): void {
  const bgT = smoothTexture(5, 24, 8, 40);
  const bg = (x: number, y: number): number => 128 + 0.25 * (bgT(x, y) - 128);
  const angle = Math.PI / 6;
  const bx = 0.4;
  const by = -0.3;
  const wx = 1.2;
  const wy = 0.8;
  const scene = (dx: number, dy: number, ux: number, uy: number) => (x: number, y: number) => {
    const b = bg(x - dx, y - dy);
    return wire(() => 0, 128 + ux, 128 + uy, angle, 100, 1)(x, y) + b;
  };
  const g0 = render(W, H, scene(0, 0, 0, 0));
  const g1 = render(W, H, scene(bx, by, wx, wy));
  const nx = -Math.sin(angle);
  const ny = Math.cos(angle);
  const pts: number[] = [];
  for (let y = 20; y < H - 20; y++) {
    for (let x = 20; x < W - 20; x++) {
      const d = (x - 128) * nx + (y - 128) * ny;
      if (Math.abs(d) < 0.5) pts.push(x, y);
    }
  }
  const points = new Float32Array(pts);
  const count = points.length / 2;
  const errors = (get: (i: number) => [number, number]): { epe: number; normal: number } => {
    let e = 0;
    let en = 0;
    for (let i = 0; i < count; i++) {
      const [u, v] = get(i);
      e += Math.hypot(u - wx, v - wy);
      en += Math.abs((u - wx) * nx + (v - wy) * ny);
    }
    return { epe: e / count, normal: en / count };
  };
  print("");
  print(`thin structure: 1-px wire moving (${wx}, ${wy}) px over background moving (${bx}, ${by}) px, ${count} wire pixels`);
  print("| method | wire EPE px | normal-component error px | ms |");
  print("|---|---|---|---|");
  for (const c of [CONFIGS[0], CONFIGS[2]] as Config[]) {
    const fe = new FlowEstimator(cv, { width: W, height: H, ...c.flow });
    const flow = new Float32Array(W * H * 2);
    const ms = timeMs(() => fe.compute(g0, g1, flow), 10, 1);
    const r = errors((i) => {
      const j = (points[2 * i + 1]! * W + points[2 * i]!) * 2;
      return [flow[j]!, flow[j + 1]!];
    });
    print(`| Farneback ${c.name} | ${r.epe.toFixed(3)} | ${r.normal.toFixed(3)} | ${ms.toFixed(2)} |`);
    fe.dispose();
  }
  // The pipeline with and without the LK wire refinement on this scene (full frame cost).
  const rgb = [rgbFromGrey(g0), rgbFromGrey(g1)];
  for (const wireRefinement of [undefined, { maxPoints: 512 }]) {
    const p = new VisionPipeline(cv, { width: W, height: H, wireRefinement });
    const ms = timeMs(
      (i) => void p.push({ width: W, height: H, encoding: "rgb8", step: W * 3, data: rgb[i % 2] as Uint8Array }, { stampNs: BigInt(i + 1) * FRAME_NS, speedMps: 5 }),
      20,
    );
    print(`| full pipeline frame, ${wireRefinement === undefined ? "dense only (default)" : `+ LK wire refinement, 512 points (${p.lastWirePixels} px replaced)`} | | | ${ms.toFixed(2)} |`);
    p.dispose();
  }
  for (const win of [7, 15]) {
    const fe = new FlowEstimator(cv, { width: W, height: H, lkWinSize: win, lkMaxLevel: 2 });
    const out = new Float32Array(points.length);
    const status = new Uint8Array(count);
    const ms = timeMs(() => fe.trackPoints(g0, g1, points, out, status), 10, 1);
    let tracked = 0;
    for (const s of status) tracked += s;
    const r = errors((i) => [out[2 * i]!, out[2 * i + 1]!]);
    print(`| pyramidal LK win ${win}, 3 levels (${tracked}/${count} tracked) | ${r.epe.toFixed(3)} | ${r.normal.toFixed(3)} | ${ms.toFixed(2)} |`);
    fe.dispose();
  }
}

export async function run(print: (line: string) => void): Promise<void> {
  const cv = await loadOpenCv();
  // Other processes share the 2 cores: absolute times scale with the load, ratios to the copy less so.
  print(`load average (1 min) at start: ${loadavg()[0]!.toFixed(1)}`);
  await costTable(cv, print);
  thinStructures(cv, print);
}
