/**
 * The adapted two-network ensemble on real photographs (issue 14 item 3, sixteenth session):
 * `detect --partner` writes the mean of two networks' maps, and `transfer --real --partner --out`
 * writes both adapted networks for it. Two dev photos per set (realPhotoFixture.ts).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { main } from "../../src/cli/main";
import { decodeImage } from "../../src/harness/data/imageCodec";
import { capture, useDevPhotos } from "./realPhotoFixture";

describe("the two-network ensemble on real photographs", () => {
  const dev = useDevPhotos("dh-ensemble-");

  it("detect --partner writes the two networks' mean map: between the two single maps, named in the output and the JSON", async () => {
    const photo = path.join(dev.real, "PLDM", "12.jpg");
    const single = (model: string): Uint8Array => {
      const out = path.join(dev.dir, `out-single-${model}`);
      return decodeImage(fs.readFileSync(path.join(out, "12.wire.png")), "12.wire.png").rgb;
    };
    for (const model of ["student", "photo"]) expect(await main(["detect", "--model", model, photo, "--out", path.join(dev.dir, `out-single-${model}`)], capture().io)).toBe(0);
    const c = capture();
    const out = path.join(dev.dir, "out-partner");
    expect(await main(["detect", "--model", "student", "--partner", "photo", photo, "--out", out], c.io)).toBe(0);
    expect(c.out.join("")).toMatch(/12\.jpg: \d+x\d+, \d+ detections, \d+\.\d ms \(student .* \+ photo .*, 2 networks on 2 threads\)/);
    // --threads 1: the partner in this thread, the same map byte for byte.
    const c1 = capture();
    expect(await main(["detect", "--model", "student", "--partner", "photo", "--threads", "1", photo, "--out", path.join(dev.dir, "out-partner-1")], c1.io)).toBe(0);
    expect(c1.out.join("")).toMatch(/2 networks in 1 thread\)/);
    expect(fs.readFileSync(path.join(dev.dir, "out-partner-1", "12.wire.png")).equals(fs.readFileSync(path.join(out, "12.wire.png")))).toBe(true);
    const both = decodeImage(fs.readFileSync(path.join(out, "12.wire.png")), "12.wire.png").rgb;
    const [s, p] = [single("student"), single("photo")];
    let differ = 0;
    for (let i = 0; i < both.length; i += 3) {
      // 8-bit maps: the mean lies between the two (one step of rounding either way), and differs from each somewhere.
      expect(both[i]!).toBeGreaterThanOrEqual(Math.min(s[i]!, p[i]!) - 1);
      expect(both[i]!).toBeLessThanOrEqual(Math.max(s[i]!, p[i]!) + 1);
      if (Math.abs(s[i]! - p[i]!) > 4 && both[i] !== s[i] && both[i] !== p[i]) differ++;
    }
    expect(differ).toBeGreaterThan(100);
    expect(JSON.parse(fs.readFileSync(path.join(out, "12.detections.json"), "utf8"))).toMatchObject({ model: expect.stringMatching(/^student/), partner: expect.stringMatching(/^photo/) });
    expect(await main(["detect", "--partner", "--out", out, photo], capture().io)).toBe(2);
    expect(await main(["detect", "--partner", "corrected", photo, "--out", out], capture().io)).toBe(2);
    expect(await main(["detect", "--partner", path.join(dev.dir, "no-model"), photo, "--out", out], capture().io)).toBe(2);
    expect(await main(["detect", "--partner", "student", "--line-support", "0.2:geo", photo, "--out", out], capture().io)).toBe(2);
    // Four full-size detections: 23 s on an idle machine (CI, twenty-seventh session); it passed 90 s with jest niced
    // beside a two-worker eval (twenty-eighth session), so the bound is 180 s.
  }, 180000);

  it("transfer --real --partner --out writes both adapted networks, which detect --partner then runs", async () => {
    const out = path.join(dev.dir, "adapted");
    const c = capture();
    expect(await main(["transfer", "--real", dev.real, "--model", "student", "--partner", "student", "--folds", "2", "--curve", "all", "--steps", "1", "--batch", "2", "--out", out], c.io)).toBe(0);
    for (const d of [out, path.join(out, "partner")]) expect(fs.existsSync(path.join(d, "teacher.model.json"))).toBe(true);
    expect(c.err.join("")).toContain(`the ensemble: detect --model ${out} --partner ${path.join(out, "partner")}`);
    const d = capture();
    expect(await main(["detect", "--model", out, "--partner", path.join(out, "partner"), path.join(dev.real, "PLDU", "1.jpg"), "--out", path.join(dev.dir, "out-adapted")], d.io)).toBe(0);
    expect(d.out.join("")).toContain("2 networks");
  }, 90000);
});
