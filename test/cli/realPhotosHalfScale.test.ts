/**
 * `eval-real --half-scale` on four dev photos: two rows per detector, and the half-scale map's AP
 * is detectAtScale's on the same photos (and not the native map's).
 */
import * as path from "node:path";
import { main } from "../../src/cli/main";
import { loadWireNet } from "../../src/cli/loadWireNet";
import { listRealPhotos, loadRealPhoto } from "../../src/cli/realPhotoSet";
import { initBackend } from "../../src/harness/backend/initBackend";
import { detectAtScale } from "../../src/harness/eval/detectNative";
import { RealSetScore } from "../../src/harness/eval/realPhotoMetrics";
import { capture, useDevPhotos } from "./realPhotoFixture";

describe("eval-real --half-scale", () => {
  const dev = useDevPhotos("dh-real-half-");

  it("adds '@1/2' and 'max(1, 1/2)' rows per detector; the half-scale AP is detectAtScale's", async () => {
    const c = capture();
    expect(await main(["eval-real", "--real", dev.real, "--model", "student", "--half-scale", "--json"], c.io)).toBe(0);
    const r = JSON.parse(c.out.join("")) as { rows: { method: string; set: string; photos: number; ap: number }[] };
    const methods = [...new Set(r.rows.map((x) => x.method.replace(/^student \S+/, "student")))];
    expect(methods).toEqual(["sobel", "student", "student @1/2", "student max(1, 1/2)"]);
    await initBackend({ prefer: "wasm" });
    const net = await loadWireNet("student", path.resolve(__dirname, "../../models"));
    const half = new RealSetScore();
    try {
      for (const ref of listRealPhotos(dev.real).filter((p) => p.set === "PLDM")) {
        const p = loadRealPhoto(ref);
        half.add(detectAtScale(net, p.image, 2), p.wire, p.image.width, p.image.height);
      }
    } finally {
      net.dispose();
    }
    const row = r.rows.find((x) => x.method.endsWith("@1/2") && x.set === "PLDM");
    expect(row?.ap).toBeCloseTo(half.result().ap, 9);
    const native = r.rows.find((x) => x.method.startsWith("student") && !x.method.includes("1/2") && x.set === "PLDM");
    expect(row?.ap).not.toBeCloseTo(native?.ap ?? Number.NaN, 6);
  }, 120000);
});
