/**
 * Seeded pseudo-random numbers for training (action sampling, minibatch order). Never
 * Math.random: a run is reproducible from its seed. Algorithm: mulberry32 (Tommy Ettinger, public
 * domain; 32-bit state, passes PractRand to 2^32 outputs), seeded through a splitmix32 mix so
 * nearby seeds give unrelated streams.
 */
export class Rng {
  private state: number;

  constructor(seed: number) {
    if (!Number.isInteger(seed)) throw new RangeError(`seed=${seed}, expected an integer`);
    let z = (seed + 0x9e3779b9) | 0;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    this.state = (z ^ (z >>> 16)) >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) | 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    if (!Number.isInteger(n) || n < 1) throw new RangeError(`n=${n}, expected a positive integer`);
    return Math.floor(this.next() * n);
  }

  /** In-place Fisher-Yates shuffle. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const a = items[i] as T;
      items[i] = items[j] as T;
      items[j] = a;
    }
    return items;
  }
}
