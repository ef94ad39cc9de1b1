/**
 * The line-support operator (src/harness/eval/lineSupport.ts) in `eval-real` and `detect` on four
 * dev photos: its rows equal the operator applied to the detector's own cells, the map keeps the
 * photo's size, and bad specs are refused with a message that names them.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { main } from "../../src/cli/main";
import { loadWireNet } from "../../src/cli/loadWireNet";
import { listRealPhotos, loadRealPhoto } from "../../src/cli/realPhotoSet";
import { initBackend } from "../../src/harness/backend/initBackend";
import { decodeImage } from "../../src/harness/data/imageCodec";
import { detectNative, withLineSupport } from "../../src/harness/eval/detectNative";
import { parseLineSupportSpec } from "../../src/harness/eval/lineSupport";
import { RealSetScore } from "../../src/harness/eval/realPhotoMetrics";
import { capture, useDevPhotos } from "./realPhotoFixture";


describe("line support on real photographs", () => {
  const dev = useDevPhotos("dh-real-ls-");

  it("eval-real --line-support adds a row per detector whose AP is the operator's on the detector's own cells", async () => {
    const c = capture();
    expect(await main(["eval-real", "--real", dev.real, "--model", "student", "--line-support", "0.2:geo", "--json"], c.io)).toBe(0);
    const r = JSON.parse(c.out.join("")) as { rows: { method: string; set: string; photos: number; ap: number }[] };
    expect(r.rows.map((x) => `${x.method.split(" ")[0]}/${x.set}/${x.photos}`)).toEqual(["sobel/PLDM/2", "sobel/PLDU/2", "sobel/all/4", "student/PLDM/2", "student/PLDU/2", "student/all/4", "student/PLDM/2", "student/PLDU/2", "student/all/4"]);
    expect(r.rows[7]!.method).toMatch(/^student .* \+ line support 0\.2:geo$/);
    await initBackend({ prefer: "wasm" });
    const net = await loadWireNet("student", path.resolve(__dirname, "../../models"));
    const lined = new RealSetScore();
    try {
      for (const ref of listRealPhotos(dev.real).filter((p) => p.set === "PLDU")) {
        const p = loadRealPhoto(ref);
        lined.add(withLineSupport(detectNative(net, p.image), parseLineSupportSpec("0.2:geo")).map, p.wire, p.image.width, p.image.height);
      }
    } finally {
      net.dispose();
    }
    expect(r.rows[7]!.ap).toBeCloseTo(lined.result().ap, 9);
    expect(r.rows[7]!.ap).not.toBeCloseTo(r.rows[4]!.ap, 6);
    expect(await main(["eval-real", "--real", dev.real, "--line-support", "0.2:max"], capture().io)).toBe(2);
  }, 120000);

  it("detect --line-support rewrites the map (same size, different values); bad specs and --tta flip with it are refused", async () => {
    const photo = path.join(dev.real, "PLDM", "12.jpg");
    const plainOut = path.join(dev.dir, "out-plain");
    const out = path.join(dev.dir, "out-ls");
    expect(await main(["detect", photo, "--out", plainOut], capture().io)).toBe(0);
    const c = capture();
    expect(await main(["detect", photo, "--line-support", "0.2:geo", "--out", out], c.io)).toBe(0);
    expect(c.out.join("")).toMatch(/12\.jpg: \d+x\d+, \d+ detections, \d+\.\d ms \(photo .*, line support 0\.2:geo\)/);
    const ls = decodeImage(fs.readFileSync(path.join(out, "12.wire.png")), "12.wire.png");
    const plain = decodeImage(fs.readFileSync(path.join(plainOut, "12.wire.png")), "12.wire.png");
    expect([ls.width, ls.height]).toEqual([plain.width, plain.height]);
    expect(Buffer.compare(Buffer.from(ls.rgb), Buffer.from(plain.rgb))).not.toBe(0);
    const bad = capture();
    expect(await main(["detect", photo, "--line-support", "0.2", "--out", out], bad.io)).toBe(2);
    expect(bad.err.join("")).toContain('--line-support: line support "0.2": expected F:geo or F:ls');
    expect(await main(["detect", photo, "--line-support", "0.2:geo", "--tta", "flip", "--out", out], capture().io)).toBe(2);
  }, 60000);
});
