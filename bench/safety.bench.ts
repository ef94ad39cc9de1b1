/**
 * Cost of the safety node's frozen-camera check per frame (src/control/FrozenImageDetector.ts:
 * the 64-bit digest of every byte of the image, src/control/imageDigest.ts), 256x256 rgb8 and
 * 640x480 rgb8. References, measured in the same run: Buffer.copy of the same bytes, and the
 * exact alternative to a digest: compare with a kept copy of the previous frame (native
 * Buffer.equals, i.e. memcmp) and then copy the new frame over it.
 * No target in the issues; the camera budget is 33 ms per frame at 30 Hz.
 */
import { FrozenImageDetector } from "../src/control/FrozenImageDetector";

function percentile(sorted: Float64Array, p: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] ?? Number.NaN;
}

function noisyFrame(n: number, seed: number): Uint8Array {
  const d = new Uint8Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0; // Numerical Recipes LCG
    d[i] = s >>> 24;
  }
  return d;
}

function measure(width: number, height: number, iterations: number, print: (line: string) => void): void {
  const n = width * height * 3;
  // Two frames that differ only in their last byte: the worst case for memcmp (it reads to the
  // end), the same cost as any frame for the digest.
  const frames = [noisyFrame(n, 1), noisyFrame(n, 1)];
  frames[1]![n - 1] = frames[1]![n - 1]! ^ 1;
  const layout = { width, height, step: width * 3, encoding: "rgb8", is_bigendian: 0 };
  const detector = new FrozenImageDetector({ timeout_s: 0.15 });
  const copyTarget = Buffer.alloc(n);
  const digestNs = new Float64Array(iterations);
  const copyNs = new Float64Array(iterations);
  const exactNs = new Float64Array(iterations);
  const previous = Buffer.alloc(n);
  let equalFrames = 0;
  for (let k = 0; k < 50; k++) detector.observe(frames[k % 2]!, layout, BigInt(k) * 33_000_000n);
  for (let k = 0; k < iterations; k++) {
    const f = frames[k % 2]!;
    const t0 = process.hrtime.bigint();
    detector.observe(f, layout, BigInt(k + 50) * 33_000_000n);
    const t1 = process.hrtime.bigint();
    Buffer.from(f.buffer, f.byteOffset, f.byteLength).copy(copyTarget);
    const t2 = process.hrtime.bigint();
    const view = Buffer.from(f.buffer, f.byteOffset, f.byteLength);
    if (view.equals(previous)) equalFrames++;
    view.copy(previous);
    const t3 = process.hrtime.bigint();
    digestNs[k] = Number(t1 - t0);
    copyNs[k] = Number(t2 - t1);
    exactNs[k] = Number(t3 - t2);
  }
  if (detector.distinctRuns !== iterations + 50) throw new Error(`distinct runs ${detector.distinctRuns}, expected ${iterations + 50}`);
  if (equalFrames !== 0) throw new Error(`${equalFrames} alternating frames compared equal`);
  digestNs.sort();
  copyNs.sort();
  exactNs.sort();
  const d50 = percentile(digestNs, 50) / 1e6;
  const c50 = percentile(copyNs, 50) / 1e6;
  print(
    `  ${width}x${height} rgb8 (${n} bytes): digest + compare p50 ${d50.toFixed(4)} ms, p99 ${(percentile(digestNs, 99) / 1e6).toFixed(4)} ms; ` +
      `Buffer.copy p50 ${c50.toFixed(4)} ms (digest/copy ${(d50 / c50).toFixed(1)}x); kept copy + Buffer.equals p50 ${(percentile(exactNs, 50) / 1e6).toFixed(4)} ms; ` +
      `digest ${(n / (d50 * 1e6)).toFixed(2)} GB/s`,
  );
}

export function run(print: (line: string) => void): Promise<void> {
  print("safety: frozen-camera check per frame (FrozenImageDetector.observe), 1,000 frames after 50 warm-up");
  measure(256, 256, 1000, print);
  measure(640, 480, 1000, print);
  return Promise.resolve();
}
