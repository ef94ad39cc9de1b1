/**
 * `eval-real --per-photo --edge-gate` on four dev photos: every photo's cell AP per method, equal
 * to the AP of that photo's cells alone (the gated row's recomputed from edgeGate here), and each
 * set's mean of them in the text output.
 */
import * as path from "node:path";
import { main } from "../../src/cli/main";
import { loadWireNet } from "../../src/cli/loadWireNet";
import { initBackend } from "../../src/harness/backend/initBackend";
import { detectNative } from "../../src/harness/eval/detectNative";
import { edgeGate } from "../../src/harness/eval/edgeGate";
import { listRealPhotos, loadRealPhoto } from "../../src/cli/realPhotoSet";
import { averagePrecision } from "../../src/harness/eval/AveragePrecision";
import { gridCellSamples, sobelMagnitudeMap } from "../../src/harness/eval/realPhotoMetrics";
import { capture, useDevPhotos } from "./realPhotoFixture";

type Out = { rows: { method: string; set: string; ap: number }[]; photos: { set: string; photo: string; wireCells: number; cells: number; ap: Record<string, number> }[] };

describe("eval-real --per-photo and --edge-gate", () => {
  const dev = useDevPhotos("dh-real-per-photo-");

  it("gives each photo's own cell AP per method (Sobel's recomputed here) and the set means", async () => {
    const c = capture();
    expect(await main(["eval-real", "--real", dev.real, "--model", "student", "--per-photo", "--edge-gate", "--json"], c.io)).toBe(0);
    const r = JSON.parse(c.out.join("")) as Out;
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
      expect(Object.keys(row?.ap ?? {})).toHaveLength(3); // sobel, the student and its gated map
      // the gated row is edgeGate of the student's native map and this Sobel map
      const gated = edgeGate(detectNative(net, p.image).map, sobelMagnitudeMap(p.image.rgb, W, H));
      const gs: number[] = [];
      const gl: number[] = [];
      gridCellSamples(gated, p.wire, W, H, gs, gl);
      const key = Object.keys(row?.ap ?? {}).find((k) => k.endsWith("+ edge gate")) ?? "";
      expect(row?.ap[key]).toBeCloseTo(averagePrecision({ scores: gs, labels: gl }), 9);
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

  it("prints no per-photo part without the flag", async () => {
    const c = capture();
    expect(await main(["eval-real", "--real", dev.real, "--model", "student", "--json"], c.io)).toBe(0);
    expect(JSON.parse(c.out.join("")).photos).toBeUndefined();
  }, 120000);
});
