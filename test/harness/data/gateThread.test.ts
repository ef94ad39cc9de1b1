/**
 * GateThread (the edge and coherence gates' photo side on a worker thread, beside detect's
 * network): the worker's edges and scale are exactly photoGateEdges in this thread for both gates,
 * so the gated map is the same bits; one photo at a time; a bad photo is named and the thread goes
 * on; a closed thread says so. The worker runs the compiled dist/ (npm test builds first).
 */
import { GateThread } from "../../../src/harness/data/node/gateThread";
import { applyGate, edgeGate, coherenceGate, photoGateEdges, sobelWithCoherence } from "../../../src/harness/eval/edgeGate";
import { sobelMagnitudeMap } from "../../../src/harness/eval/realPhotoMetrics";

const bits = (a: ArrayLike<number>): Buffer => Buffer.from(Float32Array.from(a).buffer);

describe("GateThread", () => {
  let thread: GateThread;
  const photo = { width: 47, height: 31, rgb: new Uint8Array(47 * 31 * 3).map((_, i) => (i * 37 + (i >> 6) * 11) % 251) };
  const p = Float32Array.from({ length: 47 * 31 }, (_, i) => ((i * 13) % 97) / 97);

  beforeAll(async () => {
    thread = await GateThread.start("test gate");
  });
  afterAll(async () => {
    await thread.close();
  });

  it("gives this thread's edges and scale for both gates, so the same gated map", async () => {
    for (const kind of ["edge", "coherence"] as const) {
      const here = photoGateEdges(photo.rgb, photo.width, photo.height, kind);
      const there = await thread.edges(photo, kind);
      expect(there.scale).toBe(here.scale);
      expect(bits(there.edge).equals(bits(here.edge))).toBe(true);
      expect(bits(applyGate(p, there)).equals(bits(applyGate(p, here)))).toBe(true);
    }
    // and the edges are the gates' own: edgeGate on the Sobel map, coherenceGate on Sobel and coherence
    const sobel = sobelMagnitudeMap(photo.rgb, photo.width, photo.height);
    const { coherence } = sobelWithCoherence(photo.rgb, photo.width, photo.height);
    expect(bits(applyGate(p, await thread.edges(photo, "edge"))).equals(bits(edgeGate(p, sobel)))).toBe(true);
    expect(bits(applyGate(p, await thread.edges(photo, "coherence"))).equals(bits(coherenceGate(p, sobel, coherence)))).toBe(true);
  });

  it("takes one photo at a time, names a bad photo and serves the next", async () => {
    const first = thread.edges(photo, "coherence");
    await expect(thread.edges(photo, "edge")).rejects.toThrow("test gate: one photo at a time");
    await first;
    await expect(thread.edges({ width: 5, height: 4, rgb: new Uint8Array(10) }, "edge")).rejects.toThrow("test gate: rgb.length=10, expected 60");
    expect((await thread.edges(photo, "edge")).scale).toBeGreaterThan(0);
  });

  it("fails after close with a message naming it", async () => {
    const t = await GateThread.start("short-lived gate");
    await t.close();
    await expect(t.edges(photo, "edge")).rejects.toThrow("short-lived gate: closed");
  });
});
