/**
 * What two threads can give on this machine, next to the frame generator's worker speed-up
 * (issue 12's >= 1.7x): the same fixed amount of work per thread, run in one worker thread alone
 * and then in two worker threads at once; speed-up = 2 x (time alone) / (time of the pair).
 * Two kernels: arithmetic in registers (no memory traffic), and passes over a 32 MB array (like
 * rendering and warping frames, which share the memory bus and last-level cache). On a machine
 * whose two vCPUs are hyperthreads of one host core, or whose host steals time, both stay well
 * under 2x, and no scheduling of flights can do better than the second kernel.
 */
import { Worker } from "node:worker_threads";

const KERNEL = `
const { parentPort, workerData } = require("node:worker_threads");
const t0 = performance.now();
let acc = 0;
if (workerData.kind === "registers") {
  let x = 1;
  for (let i = 0; i < workerData.units * 2e7; i++) {
    x = (x * 1.0000001 + 0.5) % 1000;
    acc += Math.sqrt(x);
  }
} else {
  const a = new Float32Array(8 * 1024 * 1024);
  for (let i = 0; i < a.length; i++) a[i] = i & 255;
  for (let pass = 0; pass < workerData.units * 4; pass++) {
    for (let i = 1; i < a.length; i++) a[i] = a[i] * 0.5 + a[i - 1] * 0.25 + 1;
    acc += a[a.length - 1];
  }
}
parentPort.postMessage({ ms: performance.now() - t0, acc });
`;

function runKernel(kind: "registers" | "memory", units: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const w = new Worker(KERNEL, { eval: true, workerData: { kind, units } });
    w.once("message", (m: { ms: number }) => {
      resolve(m.ms);
      void w.terminate();
    });
    w.once("error", reject);
  });
}

export type CeilingResult = { kind: "registers" | "memory"; alone_ms: number; pair_ms: number; speedup: number };

/** The speed-up of two threads over one for each kernel (best of `rounds` per arm). */
export async function parallelCeiling(rounds = 3, units = 3): Promise<CeilingResult[]> {
  const out: CeilingResult[] = [];
  for (const kind of ["registers", "memory"] as const) {
    let alone = Infinity;
    let pair = Infinity;
    for (let r = 0; r < rounds; r++) {
      alone = Math.min(alone, await runKernel(kind, units));
      const t0 = performance.now();
      await Promise.all([runKernel(kind, units), runKernel(kind, units)]);
      pair = Math.min(pair, performance.now() - t0);
    }
    out.push({ kind, alone_ms: alone, pair_ms: pair, speedup: (2 * alone) / pair });
  }
  return out;
}
