import fc from "fast-check";
import { imageDigest, type ImageLayout } from "../../src/control/imageDigest";

const RGB: ImageLayout = { width: 16, height: 8, step: 48, encoding: "rgb8", is_bigendian: 0 };

function digestOf(data: Uint8Array, layout: ImageLayout = RGB): [number, number] {
  const out = imageDigest(data, layout, new Uint32Array(2));
  return [out[0]!, out[1]!];
}

/** A noisy-looking frame: a seeded LCG (Numerical Recipes constants), so the test repeats. */
function frame(n: number, seed: number): Uint8Array {
  const d = new Uint8Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    d[i] = s >>> 24;
  }
  return d;
}

describe("imageDigest", () => {
  it("is a pure function of the bytes and the layout: same input, same digest; a copy digests the same", () => {
    const d = frame(16 * 8 * 3, 1);
    expect(digestOf(d)).toEqual(digestOf(d));
    expect(digestOf(Uint8Array.from(d))).toEqual(digestOf(d));
    // A view at an odd byte offset (as CDR deserialisation can hand out) reads the same bytes.
    const backing = new Uint8Array(d.length + 3);
    backing.set(d, 3);
    expect(digestOf(backing.subarray(3))).toEqual(digestOf(d));
  });

  it("any change confined to 3 consecutive bytes (one rgb8 pixel, any single byte) changes the digest, at every offset", () => {
    // Exhaustive over offsets and frame lengths 1..41 (every length mod 4 and every tail case),
    // a random replacement of 1-3 bytes each time: the structural guarantee of imageDigest.ts.
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 41 }), fc.nat(), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 255 }), (n, at, len, flip) => {
        const base = frame(n, n);
        const start = at % n;
        const changed = Uint8Array.from(base);
        for (let i = start; i < Math.min(n, start + len); i++) changed[i] = changed[i]! ^ flip;
        const layout = { ...RGB, step: n, height: 1 };
        const a = digestOf(base, layout);
        const b = digestOf(changed, layout);
        expect(a[0] !== b[0] || a[1] !== b[1]).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it("every single-pixel change of a 256x256 rgb8 frame, swept over all pixel positions of one row and column, is detected", () => {
    const layout: ImageLayout = { width: 256, height: 256, step: 768, encoding: "rgb8", is_bigendian: 0 };
    const base = frame(768 * 256, 7);
    const ref = digestOf(base, layout);
    const misses: number[] = [];
    for (const p of [...Array.from({ length: 256 }, (_, x) => 100 * 256 + x), ...Array.from({ length: 256 }, (_, y) => y * 256 + 37)]) {
      const c = Uint8Array.from(base);
      c[3 * p] = c[3 * p]! ^ 1; // the least significant bit of R
      c[3 * p + 2] = c[3 * p + 2]! ^ 0x80; // and the top bit of B
      const d = digestOf(c, layout);
      if (d[0] === ref[0] && d[1] === ref[1]) misses.push(p);
    }
    expect(misses).toEqual([]);
  });

  it("the same bytes under a different width, height, step, encoding or endianness digest differently", () => {
    const d = frame(48 * 8, 3);
    const ref = digestOf(d);
    const variants: ImageLayout[] = [
      { ...RGB, width: 12, step: 48, encoding: "rgba8" },
      { ...RGB, encoding: "bgr8" },
      { ...RGB, width: 48, encoding: "mono8" },
      { ...RGB, width: 8, height: 16, step: 24 },
      { ...RGB, is_bigendian: 1 },
    ];
    for (const v of variants) expect({ v, same: digestOf(d, v).join() === ref.join() }).toEqual({ v, same: false });
  });

  it("frames of different lengths digest differently, including all-zero frames", () => {
    expect(digestOf(new Uint8Array(48 * 8))).not.toEqual(digestOf(new Uint8Array(48 * 8 + 4)));
    expect(digestOf(new Uint8Array(0), { ...RGB, height: 0 })).not.toEqual(digestOf(new Uint8Array(1), { ...RGB, height: 0 }));
  });

  it("distinct noisy frames do not collide (10,000 random 64x64 rgb8 frames, all digests distinct)", () => {
    const layout: ImageLayout = { width: 64, height: 64, step: 192, encoding: "rgb8", is_bigendian: 0 };
    const seen = new Set<string>();
    const out = new Uint32Array(2);
    const d = new Uint8Array(192 * 64);
    for (let k = 0; k < 10_000; k++) {
      d.set(frame(64, k)); // only the first 64 bytes differ between frames: a small change
      imageDigest(d, layout, out);
      seen.add(`${out[0]}:${out[1]}`);
    }
    expect(seen.size).toBe(10_000);
  });

  it("writes into `out` and returns it; a too-short `out` is an error naming its length", () => {
    const out = new Uint32Array(2);
    expect(imageDigest(new Uint8Array(4), RGB, out)).toBe(out);
    expect(() => imageDigest(new Uint8Array(4), RGB, new Uint32Array(1))).toThrow("out.length=1, expected >= 2");
  });
});
