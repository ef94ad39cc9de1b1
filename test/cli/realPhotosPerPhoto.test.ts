/**
 * `eval-real --per-photo --edge-gate --coherence-gate` on four dev photos: every photo's cell AP
 * per method, equal to the AP of that photo's cells alone (the gated rows recomputed from edgeGate
 * and coherenceGate here), and each set's mean of them in the text output; `detect --edge-gate` and
 * `detect --coherence-gate` writing the gated maps.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { main } from "../../src/cli/main";
import { loadWireNet } from "../../src/cli/loadWireNet";
import { initBackend } from "../../src/harness/backend/initBackend";
import { decodeImage } from "../../src/harness/data/imageCodec";
import { detectNative } from "../../src/harness/eval/detectNative";
import { coherenceGate, edgeGate, structureCoherence } from "../../src/harness/eval/edgeGate";
import { listRealPhotos, loadRealPhoto } from "../../src/cli/realPhotoSet";
import { averagePrecision } from "../../src/harness/eval/AveragePrecision";
import { gridCellSamples, sobelMagnitudeMap } from "../../src/harness/eval/realPhotoMetrics";
import { capture, useDevPhotos } from "./realPhotoFixture";

type Out = { rows: { method: string; set: string; ap: number }[]; photos: { set: string; photo: string; wireCells: number; cells: number; ap: Record<string, number> }[] };

describe("eval-real --per-photo, --edge-gate and --coherence-gate", () => {
  const dev = useDevPhotos("dh-real-per-photo-");

  it("gives each photo's own cell AP per method (Sobel's recomputed here) and the set means", async () => {
    const c = capture();
    expect(await main(["eval-real", "--real", dev.real, "--model", "student", "--per-photo", "--edge-gate", "--coherence-gate", "--json", "--figure", path.join(dev.dir, "fig.png")], c.io)).toBe(0);
    const r = JSON.parse(c.out.join("")) as Out;
    // with a gate the figure shows the first model's coherence-gated map: its best and worst photo by that row's AP
    const gatedRow = Object.keys(r.photos[0]!.ap).find((k) => k.endsWith("+ coherence gate"))!;
    const gatedAp = r.photos.map((p) => [`${p.set}/${p.photo}`, p.ap[gatedRow]!] as const).sort((x, y) => y[1] - x[1]);
    expect(c.err.join("")).toContain(`${gatedRow}: best ${gatedAp[0]![0]} (cell AP ${gatedAp[0]![1].toFixed(3)}), worst ${gatedAp[3]![0]} (cell AP ${gatedAp[3]![1].toFixed(3)})`);
    await initBackend({ prefer: "wasm" });
    const net = await loadWireNet("student", path.resolve(__dirname, "../../models"));
    expect(r.photos.map((p) => `${p.set}/${p.photo}`).sort()).toEqual(["PLDM/109", "PLDM/12", "PLDU/1", "PLDU/10"]);
    for (const ref of listRealPhotos(dev.real)) {
      const p = loadRealPhoto(ref);
      const { width: W, height: H } = p.image;
      const scores: number[] = [];
      const labels: number[] = [];
      gridCellSamples(sobelMagnitudeMap(p.image.rgb, W, H), p.wire, W, H, scores, labels);
      const row = r.photos.find((x) => x.set === ref.set && x.photo === ref.name);
      expect(row?.ap.sobel).toBeCloseTo(averagePrecision({ scores, labels }), 12);
      expect([row?.cells, row?.wireCells]).toEqual([labels.length, labels.reduce((s, l) => s + l, 0)]);
      expect(Object.keys(row?.ap ?? {})).toHaveLength(4); // sobel, the student and its two gated maps
      // the gated rows are edgeGate / coherenceGate of the student's native map and this photo's maps
      const map = detectNative(net, p.image).map;
      const sobel = sobelMagnitudeMap(p.image.rgb, W, H);
      const gates: [string, Float32Array][] = [
        ["+ edge gate", edgeGate(map, sobel)],
        ["+ coherence gate", coherenceGate(map, sobel, structureCoherence(p.image.rgb, W, H))],
      ];
      for (const [suffix, gated] of gates) {
        const gs: number[] = [];
        const gl: number[] = [];
        gridCellSamples(gated, p.wire, W, H, gs, gl);
        const key = Object.keys(row?.ap ?? {}).find((k) => k.endsWith(suffix)) ?? "";
        expect(row?.ap[key]).toBeCloseTo(averagePrecision({ scores: gs, labels: gl }), 9);
      }
    }
    net.dispose();
    // the pooled set row is not the mean of its photos (that is why --per-photo exists), and the text prints the mean
    const t = capture();
    expect(await main(["eval-real", "--real", dev.real, "--model", "student", "--per-photo"], t.io)).toBe(0);
    const text = t.out.join("");
    const urban = r.photos.filter((p) => p.set === "PLDU").map((p) => p.ap.sobel!);
    const mean = (urban[0]! + urban[1]!) / 2;
    expect(text).toMatch(/mean of the per-photo cell APs/);
    expect(text).toMatch(new RegExp(`PLDU +2 +${mean.toFixed(3)} `));
    expect(text).toMatch(/\[2\] student/);
  }, 120000);

  it("names a bad --coherence-radius and one given without --coherence-gate", async () => {
    for (const [args, msg] of [
      [["--coherence-gate", "--coherence-radius", "0"], /--coherence-radius=0, expected an integer from 1 to 50/],
      [["--coherence-gate", "--coherence-radius", "2.5"], /--coherence-radius=2.5/],
      [["--coherence-radius", "4"], /--coherence-radius needs --coherence-gate/],
    ] as const) {
      const c = capture();
      expect(await main(["eval-real", "--real", dev.real, "--model", "student", ...args], c.io)).toBe(2);
      expect(c.err.join("")).toMatch(msg);
    }
  });

  it("prints no per-photo part without the flag", async () => {
    const c = capture();
    expect(await main(["eval-real", "--real", dev.real, "--model", "student", "--json"], c.io)).toBe(0);
    expect(JSON.parse(c.out.join("")).photos).toBeUndefined();
  }, 120000);
});

describe("detect --edge-gate", () => {
  const dev = useDevPhotos("dh-real-gate-");

  it("writes the gated map of the plain one (same size, same detections), and says so", async () => {
    const photo = path.join(dev.real, "PLDU", "10.jpg");
    const plainOut = path.join(dev.dir, "out-plain");
    const out = path.join(dev.dir, "out-gate");
    const plainRun = capture();
    expect(await main(["detect", photo, "--out", plainOut], plainRun.io)).toBe(0);
    const c = capture();
    expect(await main(["detect", photo, "--edge-gate", "--out", out], c.io)).toBe(0);
    expect(c.out.join("")).toMatch(/10\.jpg: 360x540, \d+ detections, \d+\.\d ms \(photo .*, edge-gated, its edges on a second thread\)/);
    const plain = decodeImage(fs.readFileSync(path.join(plainOut, "10.wire.png")), "10.wire.png");
    const gated = decodeImage(fs.readFileSync(path.join(out, "10.wire.png")), "10.wire.png");
    expect([gated.width, gated.height]).toEqual([plain.width, plain.height]);
    const image = loadRealPhoto(listRealPhotos(dev.real).find((r) => r.name === "10")!).image;
    const want = edgeGate(Float32Array.from({ length: plain.width * plain.height }, (_, i) => plain.rgb[3 * i]! / 255), sobelMagnitudeMap(image.rgb, image.width, image.height));
    // the written maps are 8-bit: the gate of the 8-bit plain map is within rounding of the 8-bit gated map
    let off = 0;
    for (let i = 0; i < want.length; i++) if (Math.abs(gated.rgb[3 * i]! / 255 - want[i]!) > 0.04) off++;
    expect(off).toBeLessThan(0.001 * want.length);
    expect(Buffer.compare(Buffer.from(gated.rgb), Buffer.from(plain.rgb))).not.toBe(0);
    const detections = (dir: string): unknown => JSON.parse(fs.readFileSync(path.join(dir, "10.detections.json"), "utf8")).detections;
    expect(detections(out)).toEqual(detections(plainOut));
  }, 60000);
});

describe("detect --coherence-gate", () => {
  const dev = useDevPhotos("dh-real-coherence-");

  it("writes the coherence-gated map of the plain one (same detections), says so, and refuses both gates", async () => {
    const photo = path.join(dev.real, "PLDM", "12.jpg");
    const plainOut = path.join(dev.dir, "out-plain");
    const out = path.join(dev.dir, "out-coherence");
    expect(await main(["detect", photo, "--out", plainOut], capture().io)).toBe(0);
    const c = capture();
    expect(await main(["detect", photo, "--coherence-gate", "--out", out], c.io)).toBe(0);
    expect(c.out.join("")).toMatch(/12\.jpg: \d+x\d+, \d+ detections, \d+\.\d ms \(photo .*, coherence-gated, its edges on a second thread\)/);
    // the edges computed in this thread (--threads 1) give the same file, byte for byte
    const one = capture();
    expect(await main(["detect", photo, "--coherence-gate", "--threads", "1", "--out", path.join(dev.dir, "out-one")], one.io)).toBe(0);
    expect(one.out.join("")).toMatch(/\(photo .*, coherence-gated\) ->/);
    expect(fs.readFileSync(path.join(dev.dir, "out-one", "12.wire.png")).equals(fs.readFileSync(path.join(out, "12.wire.png")))).toBe(true);
    const plain = decodeImage(fs.readFileSync(path.join(plainOut, "12.wire.png")), "12.wire.png");
    const gated = decodeImage(fs.readFileSync(path.join(out, "12.wire.png")), "12.wire.png");
    const image = loadRealPhoto(listRealPhotos(dev.real).find((r) => r.name === "12")!).image;
    const p = Float32Array.from({ length: plain.width * plain.height }, (_, i) => plain.rgb[3 * i]! / 255);
    const sobel = sobelMagnitudeMap(image.rgb, image.width, image.height);
    const want = coherenceGate(p, sobel, structureCoherence(image.rgb, image.width, image.height));
    const edge = edgeGate(p, sobel);
    // within 8-bit rounding of the coherence gate, and not the edge gate's map
    let off = 0;
    let offEdge = 0;
    for (let i = 0; i < want.length; i++) {
      if (Math.abs(gated.rgb[3 * i]! / 255 - want[i]!) > 0.04) off++;
      if (Math.abs(gated.rgb[3 * i]! / 255 - edge[i]!) > 0.04) offEdge++;
    }
    expect(off).toBeLessThan(0.001 * want.length);
    expect(offEdge).toBeGreaterThan(0.01 * want.length);
    const detections = (dir: string): unknown => JSON.parse(fs.readFileSync(path.join(dir, "12.detections.json"), "utf8")).detections;
    expect(detections(out)).toEqual(detections(plainOut));
    const both = capture();
    expect(await main(["detect", photo, "--edge-gate", "--coherence-gate", "--out", out], both.io)).toBe(2);
    expect(both.err.join("")).toMatch(/--edge-gate and --coherence-gate: give one/);
  }, 60000);
});
