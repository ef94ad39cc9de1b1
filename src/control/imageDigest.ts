/**
 * A 64-bit digest (two 32-bit lanes) of an image's pixels and layout, for the safety node's
 * frozen-camera check (src/control/FrozenImageDetector.ts). Not cryptographic: it tells "the
 * same buffer again" from "a new exposure", in one pass over every byte, allocating nothing.
 *
 * Each lane is a word-wise multiply-rotate hash in the style of MurmurHash3's block step
 * (Appleby, MurmurHash3_x86_32: k *= c1; h ^= k; h = rotl(h, 13); h = h * 5 + n), reduced to
 *   h = rotl(imul(h ^ w, C), R)
 * per 32-bit little-endian word w. For a fixed word, `x -> rotl(imul(x ^ w, C), R)` is a
 * bijection of the 32-bit state (xor with a constant, multiplication by an odd constant mod
 * 2^32, rotation), and for a fixed state it is injective in w. So two inputs of the same length
 * that differ only inside ONE word always give different lane values: the states first differ
 * after that word and bijections keep them apart to the end.
 *   - Lane A reads the words at byte offsets 0, 4, 8, ... ; lane B at offsets 2, 6, 10, ...
 *     (with two zero bytes in front and zero padding at the end).
 *   - Any run of at most 3 consecutive bytes lies inside one A-word or one B-word (a 3-byte run
 *     cannot cross both a boundary at 0 mod 4 and one at 2 mod 4). Hence a change confined to
 *     one pixel of rgb8, bgr8, mono8 or mono16, or any single-byte change, is ALWAYS detected.
 *     So is a change to one rgba8/bgra8 pixel when its 4 bytes start at a multiple of 4 (rows
 *     whose step is a multiple of 4).
 *   - A change spread over several words is missed only if both lanes collide; for such changes
 *     no guarantee is claimed (heuristically about 2^-32 per lane, the lanes use different
 *     multipliers and rotations).
 * Width, height, step, encoding, is_bigendian and the byte count are mixed in first, so the same
 * bytes under another layout give another digest.
 */

/** The layout fields of sensor_msgs/msg/Image that the digest covers besides the bytes. */
export type ImageLayout = { width: number; height: number; step: number; encoding: string; is_bigendian: number };

// Odd multipliers (a bijection mod 2^32): MurmurHash3's c1 and c2.
const CA = 0xcc9e2d51;
const CB = 0x1b873593;
const SEED_A = 0x811c9dc5; // FNV-1a's 32-bit offset basis
const SEED_B = 0x9e3779b9; // 2^32 / golden ratio

// Bound once: a global `Math.imul` lookup per word kept the loop out of V8's optimised path in
// jest's vm sandbox (measured 5.0 ms vs 0.16 ms for 196,608 bytes); the plain node speed is the same.
const imul = Math.imul;
const rotl = (x: number, r: number): number => (x << r) | (x >>> (32 - r));
const stepA = (h: number, w: number): number => rotl(imul(h ^ w, CA), 15);
const stepB = (h: number, w: number): number => rotl(imul(h ^ w, CB), 13);

/**
 * Writes the digest of `data` under `layout` into out[0] (lane A) and out[1] (lane B) and
 * returns `out`. Reads every byte of `data`; allocates nothing.
 */
export function imageDigest(data: Uint8Array, layout: ImageLayout, out: Uint32Array): Uint32Array {
  if (out.length < 2) throw new RangeError(`out.length=${out.length}, expected >= 2`);
  const n = data.length;
  let a = SEED_A;
  let b = SEED_B;
  a = stepA(stepA(stepA(stepA(stepA(a, layout.width | 0), layout.height | 0), layout.step | 0), layout.is_bigendian | 0), n);
  b = stepB(stepB(stepB(stepB(stepB(b, layout.width | 0), layout.height | 0), layout.step | 0), layout.is_bigendian | 0), n);
  const enc = layout.encoding;
  for (let i = 0; i < enc.length; i++) {
    a = stepA(a, enc.charCodeAt(i));
    b = stepB(b, enc.charCodeAt(i));
  }
  const whole = n - (n % 4);
  // p2, p3: bytes i-2 and i-1, the first half of the B-word that ends inside word i.
  let p2 = 0;
  let p3 = 0;
  for (let i = 0; i < whole; i += 4) {
    const b0 = data[i]!, b1 = data[i + 1]!, b2 = data[i + 2]!, b3 = data[i + 3]!;
    a = stepA(a, b0 | (b1 << 8) | (b2 << 16) | (b3 << 24));
    b = stepB(b, p2 | (p3 << 8) | (b0 << 16) | (b1 << 24));
    p2 = b2;
    p3 = b3;
  }
  // Tail: the last n % 4 bytes, zero-padded, then the B-word that starts 2 bytes before the end
  // of the whole words.
  const t0 = whole < n ? data[whole]! : 0;
  const t1 = whole + 1 < n ? data[whole + 1]! : 0;
  const t2 = whole + 2 < n ? data[whole + 2]! : 0;
  if (whole < n) a = stepA(a, t0 | (t1 << 8) | (t2 << 16));
  b = stepB(b, p2 | (p3 << 8) | (t0 << 16) | (t1 << 24));
  if (whole + 2 < n) b = stepB(b, t2);
  out[0] = a >>> 0;
  out[1] = b >>> 0;
  return out;
}
