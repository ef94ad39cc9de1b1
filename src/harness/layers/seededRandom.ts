/**
 * Deterministic pseudo-random numbers for weight initialisation (so a model built with a seed is
 * reproducible across backends). mulberry32: a 32-bit state generator, public domain
 * (Tommy Ettinger, https://gist.github.com/tommyettinger/46a874533244883189143505d203312c);
 * Gaussian samples by the Box-Muller transform.
 */
export class SeededRandom {
  private state: number;
  private spare: number | undefined;

  constructor(seed: number) {
    if (!Number.isInteger(seed)) {
      throw new RangeError(`seed=${seed}, expected an integer`);
    }
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  uniform(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Standard normal sample. */
  normal(): number {
    if (this.spare !== undefined) {
      const s = this.spare;
      this.spare = undefined;
      return s;
    }
    let u = 0;
    while (u === 0) u = this.uniform();
    const v = this.uniform();
    const r = Math.sqrt(-2 * Math.log(u));
    this.spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  }
}
