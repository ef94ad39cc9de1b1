/**
 * The one seeded pseudo-random number generator of the project (simulator, training, weight
 * initialisation, tests): xoshiro128** (Blackman & Vigna, "Scrambled
 * linear pseudorandom number generators", 2018, https://prng.di.unimi.it/xoshiro128starstar.c)
 * seeded through splitmix32. 32-bit integer arithmetic only, so it is fast in JavaScript and gives
 * the same sequence on every platform. Nothing uses Math.random: the same seed gives the same
 * world, sensor noise and frames byte for byte (the golden bags depend on this stream), and the
 * same training run.
 */
export class Rng {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;
  private spare = 0;
  private hasSpare = false;

  constructor(seed: number) {
    if (!Number.isFinite(seed)) throw new RangeError(`seed=${seed}, expected a finite number`);
    // splitmix32 expands one 32-bit seed into four non-zero state words.
    let x = (Math.floor(seed) ^ Math.floor(seed / 4294967296)) >>> 0;
    const next = (): number => {
      x = (x + 0x9e3779b9) >>> 0;
      let z = x;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.s0 = next();
    this.s1 = next();
    this.s2 = next();
    this.s3 = next();
    if ((this.s0 | this.s1 | this.s2 | this.s3) === 0) this.s0 = 1;
  }

  /** Uniform 32-bit unsigned integer. */
  nextU32(): number {
    const result = Math.imul(rotl(Math.imul(this.s1, 5), 7), 9) >>> 0;
    const t = this.s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= this.s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = rotl(this.s3, 11);
    return result;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.nextU32() / 4294967296;
  }

  /** Uniform in [min, max) (default [0, 1), the same value as next()). */
  uniform(min = 0, max = 1): number {
    return min + (max - min) * this.next();
  }

  /** Uniform integer in [0, n) (n a positive integer). */
  int(n: number): number;
  /** Uniform integer in [min, max] (both inclusive). */
  int(min: number, max: number): number;
  int(a: number, b?: number): number {
    if (b === undefined) {
      if (!Number.isInteger(a) || a < 1) throw new RangeError(`n=${a}, expected a positive integer`);
      return Math.floor(this.next() * a);
    }
    return a + Math.floor(this.next() * (b - a + 1));
  }

  /** In-place Fisher-Yates shuffle; returns `items`. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const a = items[i] as T;
      items[i] = items[j] as T;
      items[j] = a;
    }
    return items;
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** Standard normal sample (Marsaglia polar method; the spare value is cached). */
  normal(): number {
    if (this.hasSpare) {
      this.hasSpare = false;
      return this.spare;
    }
    let u = 0;
    let v = 0;
    let s = 0;
    do {
      u = this.next() * 2 - 1;
      v = this.next() * 2 - 1;
      s = u * u + v * v;
    } while (s >= 1 || s === 0);
    const m = Math.sqrt((-2 * Math.log(s)) / s);
    this.spare = v * m;
    this.hasSpare = true;
    return u * m;
  }

  /** An independent stream derived from this seed and a label (world, sensors, ... never share one). */
  static derive(seed: number, label: number): Rng {
    return new Rng(hash32(Math.floor(seed) ^ Math.imul(label, 0x27d4eb2d)) + label * 0x10000);
  }
}

function rotl(x: number, k: number): number {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}

/** 32-bit integer hash (lowbias32, Chris Wellons, https://nullprogram.com/blog/2018/07/31/). */
export function hash32(value: number): number {
  let x = value >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d) >>> 0;
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b) >>> 0;
  x ^= x >>> 16;
  return x >>> 0;
}
