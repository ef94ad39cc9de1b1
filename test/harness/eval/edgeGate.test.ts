/**
 * The edge gate (edgeGate.ts): sqrt(p x min(1, s / q99)) per pixel, with the photo's own 99th
 * percentile, a floor for flat photos, and clear errors.
 */
import { edgeGate, EDGE_GATE_FLOOR, quantile } from "../../../src/harness/eval/edgeGate";

describe("edgeGate", () => {
  it("keeps p where the edge reaches the photo's 99th percentile and scales it down by sqrt(s / q99) below", () => {
    const n = 1000;
    const sobel = new Float32Array(n).fill(0.01);
    for (let i = 0; i < 20; i++) sobel[i] = 0.4; // 2 % strong edges: q99 = 0.4
    sobel[1] = 0.8; // above q99: the gate is 1 there, it never raises p
    const p = new Float32Array(n).fill(0.64);
    const g = edgeGate(p, sobel);
    expect(g[0]).toBeCloseTo(0.8, 6); // sqrt(0.64 x 1)
    expect(g[1]).toBeCloseTo(0.8, 6);
    expect(g[500]).toBeCloseTo(Math.sqrt(0.64 * (0.01 / 0.4)), 6);
    // the ranking inside the photo follows the edges where p is flat, and p where the edges are flat
    p[600] = 0.9;
    expect(edgeGate(p, sobel)[600]).toBeGreaterThan(g[500]!);
  });

  it("is the same whatever the Sobel map's scale (q99 per photo), and floors a flat photo", () => {
    const sobel = Float32Array.from({ length: 500 }, (_, i) => (i % 7) / 70);
    const p = Float32Array.from({ length: 500 }, (_, i) => (i % 11) / 11);
    const a = edgeGate(p, sobel);
    const b = edgeGate(p, sobel.map((v) => v * 3));
    for (let i = 0; i < a.length; i++) expect(b[i]).toBeCloseTo(a[i]!, 6);
    const flat = edgeGate(p, new Float32Array(500));
    expect(flat.every((v) => v === 0)).toBe(true);
    expect(EDGE_GATE_FLOOR).toBeGreaterThan(0);
  });

  it("names the problem on mismatched maps and bad quantiles", () => {
    expect(() => edgeGate(new Float32Array(3), new Float32Array(4))).toThrow(/map has 3 pixels, Sobel map 4/);
    expect(() => quantile([], 0.5)).toThrow(/no values/);
    expect(() => quantile([1, 2], 1.5)).toThrow(/q=1.5/);
    expect(quantile([5, 1, 3, 2, 4], 0.5)).toBe(3);
    expect(() => quantile([1, Number.NaN], 0.5)).toThrow(/value 1 is NaN/);
  });

  it("quantile is the nearest rank of a full sort, with ties, clusters and a long tail", () => {
    let seed = 7;
    const rand = (): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
    for (let t = 0; t < 40; t++) {
      const n = 1 + Math.floor(rand() * 3000);
      const v = Float32Array.from({ length: n }, () => (rand() < 0.3 ? Math.round(rand() * 4) : rand() ** 6 * 9 - 1));
      const sorted = Float64Array.from(v).sort();
      for (const q of [0, 0.01, 0.5, 0.99, 1]) expect(quantile(v, q)).toBe(sorted[Math.min(n - 1, Math.floor(q * n))]);
    }
    expect(quantile([2, 2, 2], 0.99)).toBe(2);
  });
});
