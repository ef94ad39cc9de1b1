/**
 * The seed-bootstrap interval of the AP (src/harness/eval/ClusteredAp.ts): the point estimate is
 * the exact AP of AveragePrecision.ts, the interval is reproducible, it widens when the seeds
 * disagree and vanishes when every seed holds the same samples.
 */
import { averagePrecision } from "../../../src/harness/eval/AveragePrecision";
import { ClusteredAp, formatApWithInterval } from "../../../src/harness/eval/ClusteredAp";
import { Rng } from "../../../src/util/Rng";

/** Samples of `seeds` flights; a flight's scores separate its positives by `separation(seed)`. */
function flights(seeds: number, perSeed: number, separation: (seed: number) => number, rngSeed = 3): { scores: number[]; labels: number[]; seeds: number[] } {
  const rng = new Rng(rngSeed);
  const out = { scores: [] as number[], labels: [] as number[], seeds: [] as number[] };
  for (let s = 0; s < seeds; s++) {
    for (let i = 0; i < perSeed; i++) {
      const label = rng.next() < 0.1 ? 1 : 0;
      // Rounded to 1/64 so that ties occur, as they do with saturated probabilities.
      const score = Math.round(64 * Math.min(1, Math.max(0, 0.3 + label * separation(100 + s) + 0.25 * rng.normal()))) / 64;
      out.scores.push(score);
      out.labels.push(label);
      out.seeds.push(100 + s);
    }
  }
  return out;
}

function fill(data: { scores: number[]; labels: number[]; seeds: number[] }): ClusteredAp {
  const c = new ClusteredAp();
  data.scores.forEach((s, i) => c.push(s, data.labels[i]!, data.seeds[i]!));
  return c;
}

describe("ClusteredAp", () => {
  it("gives the exact AP of averagePrecision, bit for bit, ties included", () => {
    const data = flights(12, 300, (s) => 0.1 + 0.03 * (s % 5));
    const r = fill(data).interval(0);
    expect(r.ap).toBe(averagePrecision({ scores: Float32Array.from(data.scores), labels: data.labels }));
    expect(r.clusters).toBe(12);
    expect(Number.isNaN(r.lo) && Number.isNaN(r.hi)).toBe(true);
    expect(formatApWithInterval(r)).toBe(r.ap.toFixed(3));
  });

  it("brackets the AP, is reproducible for a seed, and is wider when the flights disagree", () => {
    const alike = fill(flights(20, 200, () => 0.25)).interval(400, 7);
    const unlike = fill(flights(20, 200, (s) => (s % 2 === 0 ? 0.05 : 0.6))).interval(400, 7);
    for (const r of [alike, unlike]) {
      expect(r.lo).toBeLessThanOrEqual(r.ap);
      expect(r.hi).toBeGreaterThanOrEqual(r.ap);
      expect(r.resamples).toBe(400);
    }
    expect(unlike.hi - unlike.lo).toBeGreaterThan(2 * (alike.hi - alike.lo));
    const again = fill(flights(20, 200, () => 0.25)).interval(400, 7);
    expect([again.lo, again.hi]).toEqual([alike.lo, alike.hi]);
    expect(formatApWithInterval(alike)).toBe(`${alike.ap.toFixed(3)} [${alike.lo.toFixed(3)}, ${alike.hi.toFixed(3)}]`);
  });

  it("has no width when every seed holds the same samples (resampling seeds cannot move the AP)", () => {
    const one = flights(1, 400, () => 0.2);
    const copies = { scores: [] as number[], labels: [] as number[], seeds: [] as number[] };
    for (let s = 0; s < 8; s++) one.scores.forEach((x, i) => (copies.scores.push(x), copies.labels.push(one.labels[i]!), copies.seeds.push(s)));
    const r = fill(copies).interval(200);
    expect(r.lo).toBeCloseTo(r.ap, 12);
    expect(r.hi).toBeCloseTo(r.ap, 12);
  });

  it("counts resamples without a positive and leaves them out", () => {
    const c = new ClusteredAp();
    c.push(0.9, 1, 1);
    c.push(0.2, 0, 1);
    c.push(0.5, 0, 2);
    c.push(0.4, 0, 3);
    const r = c.interval(300, 2);
    // P(seed 1 never drawn in 3 draws) = (2/3)^3 = 0.30: about 89 of 300.
    expect(r.emptyResamples).toBeGreaterThan(50);
    expect(r.emptyResamples).toBeLessThan(130);
    expect(r.hi).toBe(1);
  });

  it("rejects samples it cannot rank and arguments it cannot use, naming them", () => {
    const c = new ClusteredAp();
    expect(() => c.push(Number.NaN, 1, 1)).toThrow(/score=NaN, expected a finite number/);
    expect(() => c.push(0.5, 2, 1)).toThrow(/label=2, expected 0 or 1/);
    expect(() => c.interval(-1)).toThrow(/resamples=-1/);
    expect(() => c.interval(10, 1, 1.5)).toThrow(/level=1.5/);
    expect(Number.isNaN(c.interval(10).ap)).toBe(true);
  });
});
