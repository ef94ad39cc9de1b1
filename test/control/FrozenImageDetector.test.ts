import { FrozenImageDetector } from "../../src/control/FrozenImageDetector";
import type { ImageLayout } from "../../src/control/imageDigest";

const MS = 1_000_000n;
const RGB: ImageLayout = { width: 32, height: 32, step: 96, encoding: "rgb8", is_bigendian: 0 };
/** 30 Hz on the 1 ms grid: frame k arrives at 33k ms. */
const at = (k: number): bigint => BigInt(33 * k) * MS;

function noisy(seed: number, n = 96 * 32): Uint8Array {
  const d = new Uint8Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0; // Numerical Recipes LCG
    d[i] = s >>> 24;
  }
  return d;
}

describe("FrozenImageDetector", () => {
  it("changing frames never count as frozen", () => {
    const f = new FrozenImageDetector({ timeout_s: 0.5 });
    for (let k = 0; k < 90; k++) {
      f.observe(noisy(k), RGB, at(k));
      expect(f.evaluate(at(k) + 10n * MS)).toEqual({ type: "ok" });
    }
    expect(f.distinctRuns).toBe(90);
  });

  it("identical pixels with advancing arrival times: ok up to the timeout, frozen strictly after it, with the reason", () => {
    const f = new FrozenImageDetector({ timeout_s: 0.5 });
    const img = noisy(1);
    f.observe(noisy(0), RGB, at(0));
    // The freeze: frame 1's pixels are sent again from frame 2 on (the same buffer, new stamps).
    for (let k = 1; k <= 16; k++) f.observe(img, RGB, at(k));
    // Run start: frame 1 at 33 ms. 33 + 500 = 533 ms: not yet (strictly greater is frozen).
    expect(f.evaluate(533n * MS)).toEqual({ type: "ok" });
    expect(f.identicalSeconds(533n * MS)).toBeCloseTo(0.5, 9);
    const v = f.evaluate(534n * MS);
    expect(v).toEqual({
      type: "frozen",
      identical_s: 0.501,
      frames: 16,
      reason: "camera frozen: identical pixels for 0.50 s with advancing stamps (16 frames, frozen_image_timeout_s=0.5)",
    });
  });

  it("a single frame that is not repeated is not 'frozen' (a stopped camera is the stale check's job)", () => {
    const f = new FrozenImageDetector({ timeout_s: 0.5 });
    f.observe(noisy(3), RGB, 0n);
    expect(f.evaluate(5000n * MS)).toEqual({ type: "ok" });
    expect(f.identicalSeconds(5000n * MS)).toBe(0);
  });

  it("a one-byte change ends the run at once (recovery), and a new run needs the full timeout again", () => {
    const f = new FrozenImageDetector({ timeout_s: 0.5 });
    const img = noisy(5);
    for (let k = 0; k <= 20; k++) f.observe(img, RGB, at(k));
    expect(f.evaluate(at(20)).type).toBe("frozen");
    const changed = Uint8Array.from(img);
    changed[1234] = changed[1234]! ^ 1;
    f.observe(changed, RGB, at(21));
    expect(f.evaluate(at(21))).toEqual({ type: "ok" });
    // The changed frame now repeats: frozen again only after another 0.5 s (from frame 21).
    for (let k = 22; k <= 36; k++) f.observe(changed, RGB, at(k));
    expect(f.evaluate(at(21) + 500n * MS)).toEqual({ type: "ok" });
    expect(f.evaluate(at(21) + 501n * MS).type).toBe("frozen");
  });

  it("the same bytes under another size or encoding are a change, not a repeat", () => {
    const f = new FrozenImageDetector({ timeout_s: 0.1 });
    const bytes = noisy(9);
    const layouts: ImageLayout[] = [RGB, { ...RGB, encoding: "bgr8" }, { ...RGB, width: 96, encoding: "mono8" }, { ...RGB, width: 24, step: 96, encoding: "rgba8" }];
    for (let k = 0; k < 40; k++) f.observe(bytes, layouts[k % layouts.length]!, at(k));
    expect(f.evaluate(at(40))).toEqual({ type: "ok" });
    expect(f.distinctRuns).toBe(40);
  });

  it("timeout 0 disables the check; bad timeouts are errors naming the value and range", () => {
    const f = new FrozenImageDetector({ timeout_s: 0 });
    const img = noisy(2);
    for (let k = 0; k < 100; k++) f.observe(img, RGB, at(k));
    expect(f.enabled).toBe(false);
    expect(f.evaluate(at(100))).toEqual({ type: "ok" });
    expect(() => new FrozenImageDetector({ timeout_s: -1 })).toThrow("frozen_image_timeout_s=-1, expected a finite number >= 0 (0 disables)");
    expect(() => new FrozenImageDetector({ timeout_s: Number.NaN })).toThrow("frozen_image_timeout_s=NaN");
    expect(new FrozenImageDetector().timeoutNs).toBe(500n * MS);
  });

  it("a clock that jumps backward (sim reset) clears the run", () => {
    const f = new FrozenImageDetector({ timeout_s: 0.5 });
    const img = noisy(4);
    for (let k = 100; k <= 130; k++) f.observe(img, RGB, at(k));
    expect(f.evaluate(at(130)).type).toBe("frozen");
    f.observe(img, RGB, at(1));
    expect(f.evaluate(at(2))).toEqual({ type: "ok" });
    f.observe(img, RGB, at(3));
    expect(f.identicalSeconds(at(3))).toBeCloseTo(0.066, 9);
  });
});

describe("FrozenImageDetector: memory", () => {
  it("observing a frame allocates no per-frame buffers: 2,000 frames of 256x256 rgb8 keep the heap flat", () => {
    // What is measured: the memory held by ArrayBuffers (process.memoryUsage().arrayBuffers, where
    // a copy of the frame would land), sampled every 100 frames, against the value after a warm-up.
    // Measured with the same loop doing one Uint8Array.from(frame) per call instead: +27 MB. The
    // bound of 2 MB is far below that and far above the 16 bytes the detector keeps.
    const layout: ImageLayout = { width: 256, height: 256, step: 768, encoding: "rgb8", is_bigendian: 0 };
    const f = new FrozenImageDetector({ timeout_s: 0.5 });
    const a = noisy(11, 768 * 256);
    const b = noisy(12, 768 * 256);
    for (let k = 0; k < 50; k++) f.observe(k % 2 === 0 ? a : b, layout, at(k));
    const buffers0 = process.memoryUsage().arrayBuffers;
    let grown = 0;
    for (let k = 50; k < 2050; k++) {
      f.observe(k % 2 === 0 ? a : b, layout, at(k));
      if (k % 100 === 0) grown = Math.max(grown, process.memoryUsage().arrayBuffers - buffers0);
    }
    expect(grown).toBeLessThan(2 * 1024 * 1024);
    expect(f.distinctRuns).toBe(2050);
  });
});
