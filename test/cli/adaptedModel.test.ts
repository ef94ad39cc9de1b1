/**
 * The shipped adapted photo model (models/photo/adapted, `detect --model adapted`; issue 14 item
 * 3): written by `transfer --real --out` from the dev photos, its notes name that command, and on
 * dev photos it was trained on it scores above the photo model it started from (a training score:
 * this checks that the adapted weights are the ones shipped, not how well they generalise; the
 * k-fold figures in docs/real.md do that).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { main } from "../../src/cli/main";
import { decodeImage } from "../../src/harness/data/imageCodec";
import { detectorDir } from "../../src/cli/loadWireNet";
import { capture, useDevPhotos } from "./realPhotoFixture";

describe("the adapted photo model", () => {
  const dev = useDevPhotos("dh-adapted-");

  it("is models/photo/adapted, written by transfer --real --out on the dev photos", () => {
    expect(detectorDir("adapted")).toBe(path.join("models", "photo", "adapted"));
    const meta = JSON.parse(fs.readFileSync(path.join("models", "photo", "adapted", "teacher.model.json"), "utf8")) as Record<string, unknown>;
    expect(JSON.stringify(meta)).toMatch(/drone-harness transfer --real \S*pld-dev .*--out models\/photo\/adapted/);
  });

  it("detect --model adapted writes a map at the photo's size; on dev photos it scores above the photo model it came from", async () => {
    const c = capture();
    expect(await main(["detect", "--model", "adapted", path.join(dev.real, "PLDU", "10.jpg"), "--out", path.join(dev.dir, "out")], c.io)).toBe(0);
    expect(c.out.join("")).toMatch(/10\.jpg: 360x540, \d+ detections, \d+\.\d ms \(adapted \(models[/\\]photo[/\\]adapted\)/);
    const map = decodeImage(fs.readFileSync(path.join(dev.dir, "out", "10.wire.png")), "10.wire.png");
    expect([map.width, map.height]).toEqual([360, 540]);
    const e = capture();
    expect(await main(["eval-real", "--real", dev.real, "--model", "photo,adapted", "--json"], e.io)).toBe(0);
    const rows = (JSON.parse(e.out.join("")) as { rows: { method: string; set: string; ap: number }[] }).rows;
    const ap = (m: string): number => rows.find((x) => x.method.startsWith(m) && x.set === "all")!.ap;
    expect(ap("adapted")).toBeGreaterThan(ap("photo") + 0.05);
  }, 90000);
});
