/**
 * The edge gate (edgeGate.ts): sqrt(p x min(1, s / q99)) per pixel, with the photo's own 99th
 * percentile, a floor for flat photos, and clear errors; the structure tensor's coherence (against a
 * brute-force reference) and the coherence gate built on it.
 */
import { applyGate, coherenceGate, edgeGate, EDGE_GATE_FLOOR, gateEdgesOf, photoGateEdges, quantile, sobelWithCoherence, structureCoherence } from "../../../src/harness/eval/edgeGate";
import { sobelMagnitudeMap } from "../../../src/harness/eval/realPhotoMetrics";

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

/** A grey W x H photo as RGB from a function of (x, y) in 0..255. */
function greyPhoto(W: number, H: number, f: (x: number, y: number) => number): Uint8Array {
  const rgb = new Uint8Array(3 * W * H);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) rgb.fill(Math.max(0, Math.min(255, Math.round(f(x, y)))), 3 * (y * W + x), 3 * (y * W + x) + 3);
  return rgb;
}

/** The coherence written out directly: gradients by the Sobel kernels, every window pixel summed, OpenCV's reflect-101 border. */
function coherenceReference(rgb: Uint8Array, W: number, H: number, r: number): Float64Array {
  const refl = (v: number, n: number): number => {
    while (v < 0 || v >= n) v = v < 0 ? -v : 2 * n - 2 - v;
    return v;
  };
  const g = (x: number, y: number): number => {
    const i = 3 * (refl(y, H) * W + refl(x, W));
    return (rgb[i]! + rgb[i + 1]! + rgb[i + 2]!) / 765;
  };
  const gx = (x: number, y: number): number => g(x + 1, y - 1) + 2 * g(x + 1, y) + g(x + 1, y + 1) - g(x - 1, y - 1) - 2 * g(x - 1, y) - g(x - 1, y + 1);
  const gy = (x: number, y: number): number => g(x - 1, y + 1) + 2 * g(x, y + 1) + g(x + 1, y + 1) - g(x - 1, y - 1) - 2 * g(x, y - 1) - g(x + 1, y - 1);
  const out = new Float64Array(W * H);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      let a = 0;
      let b = 0;
      let c = 0;
      for (let dy = -r; dy <= r; dy++) {
        for (let dx = -r; dx <= r; dx++) {
          const u = gx(refl(x + dx, W), refl(y + dy, H));
          const v = gy(refl(x + dx, W), refl(y + dy, H));
          a += u * u;
          b += v * v;
          c += u * v;
        }
      }
      out[y * W + x] = a + b > 1e-12 * (2 * r + 1) ** 2 ? Math.sqrt((a - b) ** 2 + 4 * c * c) / (a + b) : 0;
    }
  }
  return out;
}

describe("structureCoherence and the coherence gate", () => {
  it("matches the brute-force structure tensor, small photos and every radius included", () => {
    let seed = 11;
    const rand = (): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
    for (const [W, H, r] of [[9, 7, 1], [12, 10, 3], [2, 3, 3], [5, 2, 2], [16, 16, 4]] as const) {
      const rgb = greyPhoto(W, H, () => rand() * 255);
      const got = structureCoherence(rgb, W, H, r);
      const want = coherenceReference(rgb, W, H, r);
      for (let i = 0; i < got.length; i++) expect(got[i]).toBeCloseTo(want[i]!, 4);
    }
  });

  it("is near 1 on a straight wire of any direction, low in random texture, 0 on a flat photo", () => {
    const W = 80;
    const H = 60;
    for (const angle of [0, 0.4, 1.1, Math.PI / 2]) {
      // a 2-px pale wire through the centre at `angle`, on grey
      const [cx, cy, nx, ny] = [W / 2, H / 2, -Math.sin(angle), Math.cos(angle)];
      const rgb = greyPhoto(W, H, (x, y) => (Math.abs((x - cx) * nx + (y - cy) * ny) < 1 ? 230 : 90));
      const c = structureCoherence(rgb, W, H);
      expect(c[Math.round(cy) * W + Math.round(cx)]).toBeGreaterThan(0.85);
    }
    let seed = 5;
    const rand = (): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
    const noise = structureCoherence(greyPhoto(W, H, () => rand() * 255), W, H);
    const mean = noise.reduce((s, v) => s + v, 0) / noise.length;
    expect(mean).toBeLessThan(0.35);
    expect(structureCoherence(greyPhoto(W, H, () => 128), W, H).every((v) => v === 0)).toBe(true);
  });

  it("sobelWithCoherence gives sobelMagnitudeMap bit for bit beside the coherence", () => {
    let seed = 3;
    const rand = (): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
    const rgb = greyPhoto(31, 23, (x, y) => 128 + 60 * Math.sin(x / 3 + y / 5) + 40 * rand());
    const { sobel, coherence } = sobelWithCoherence(rgb, 31, 23);
    expect(Buffer.from(sobel.buffer).equals(Buffer.from(sobelMagnitudeMap(rgb, 31, 23).buffer))).toBe(true);
    expect(Buffer.from(coherence.buffer).equals(Buffer.from(structureCoherence(rgb, 31, 23).buffer))).toBe(true);
  });

  it("the coherence gate is the edge gate of Sobel x coherence, so a wire keeps its p and a leaf edge of the same strength loses it", () => {
    const n = 400;
    const sobel = new Float32Array(n).fill(0.02);
    const coherence = new Float32Array(n).fill(0.2);
    for (let i = 0; i < 8; i++) [sobel[i], coherence[i]] = [0.5, 0.95]; // the wire: strong and straight
    for (let i = 8; i < 16; i++) [sobel[i], coherence[i]] = [0.5, 0.15]; // foliage: as strong, every direction
    const p = new Float32Array(n).fill(0.5);
    const g = coherenceGate(p, sobel, coherence);
    const e = sobel.map((s, i) => s * coherence[i]!);
    expect(Array.from(g)).toEqual(Array.from(edgeGate(p, e)));
    expect(g[0]!).toBeGreaterThan(2 * g[8]!);
    expect(edgeGate(p, sobel)[0]).toBeCloseTo(edgeGate(p, sobel)[8]!, 9); // the edge gate cannot tell them apart
    expect(() => coherenceGate(p, sobel, new Float32Array(3))).toThrow(/Sobel map has 400 pixels, coherence map 3/);
    expect(() => structureCoherence(greyPhoto(4, 4, () => 0), 4, 4, 0)).toThrow(/radius 0/);
    expect(() => applyGate(p, { edge: sobel, scale: 0 })).toThrow(/edge scale 0, expected > 0/);
    expect(() => structureCoherence(greyPhoto(4, 4, () => 0), 4, 4, 1.5)).toThrow(/radius 1.5/);
  });
});

describe("photoGateEdges", () => {
  it("is each gate's edges and floored 99th percentile, so applyGate is edgeGate / coherenceGate", () => {
    const rgb = greyPhoto(40, 30, (x, y) => (Math.abs(x - 0.5 * y - 10) < 1.2 ? 220 : 70 + ((x * 7 + y * 13) % 23)));
    const p = Float32Array.from({ length: 1200 }, (_, i) => ((i * 31) % 101) / 101);
    const sobel = sobelMagnitudeMap(rgb, 40, 30);
    const { coherence } = sobelWithCoherence(rgb, 40, 30);
    const edge = photoGateEdges(rgb, 40, 30, "edge");
    expect(edge.scale).toBe(Math.max(EDGE_GATE_FLOOR, quantile(sobel, 0.99)));
    expect(Array.from(applyGate(p, edge))).toEqual(Array.from(edgeGate(p, sobel)));
    expect(Array.from(applyGate(p, photoGateEdges(rgb, 40, 30, "coherence")))).toEqual(Array.from(coherenceGate(p, sobel, coherence)));
    expect(gateEdgesOf(new Float32Array(50)).scale).toBe(EDGE_GATE_FLOOR);
  });
});
