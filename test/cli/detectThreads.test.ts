/**
 * `detect --threads`: with 2 threads (the default) the flip average's mirrored pass runs on a
 * worker thread, with 1 both passes run here; the map is the same byte for byte, and the output
 * says where the passes ran. Bad values and a combination the worker cannot serve are refused.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { main } from "../../src/cli/main";
import { capture, useDevPhotos } from "./realPhotoFixture";

describe("detect --threads", () => {
  const dev = useDevPhotos("dh-threads-");

  it("--tta flip writes the same map with the mirrored pass on a second thread (default) and in one thread", async () => {
    const maps: Buffer[] = [];
    for (const [threads, says] of [
      [[], /ms \(photo .*, flip-averaged, the mirrored pass on a second thread\) ->/],
      [["--threads", "1"], /ms \(photo .*, flip-averaged\) ->/],
    ] as const) {
      const c = capture();
      const out = path.join(dev.dir, `out-${threads.length}`);
      expect(await main(["detect", path.join(dev.real, "PLDU", "1.jpg"), "--tta", "flip", ...threads, "--out", out], c.io)).toBe(0);
      expect(c.out.join("")).toMatch(says);
      maps.push(fs.readFileSync(path.join(out, "1.wire.png")));
    }
    expect(maps[0]!.equals(maps[1]!)).toBe(true);
  }, 60000);

  it("refuses --threads other than 1 or 2, and a second thread for the co-evolved student's flip average", async () => {
    const photo = path.join(dev.real, "PLDU", "1.jpg");
    const out = path.join(dev.dir, "out-bad");
    const bad = capture();
    expect(await main(["detect", photo, "--threads", "3", "--out", out], bad.io)).toBe(2);
    expect(bad.err.join("")).toContain("--threads=3, expected 1 or 2");
    const corrected = capture();
    expect(await main(["detect", "--model", "corrected", "--tta", "flip", "--threads", "2", photo, "--out", out], corrected.io)).toBe(2);
    expect(corrected.err.join("")).toContain("the co-evolved student runs in this thread only");
    expect(fs.existsSync(out)).toBe(false);
  });
});
