import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { main } from "../../../src/cli/main";
import { decodeImage, encodeRgbPng } from "../../../src/harness/data/imageCodec";

// A tiny scenario (64x64 camera, 20-24 m path) so that train --quick, eval and detect run in
// well under a minute together.
const SCENARIO = `name: smoke
description: tiny scenario for the CLI smoke test
path:
  length_m: [20, 24]
  timeLimit_s: 12
camera:
  width: 64
  height: 64
ground:
  textureSize: 256
`;

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t) }, out, err };
}

describe("drone-harness train --quick -> eval -> detect", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dh-train-"));
  const scenario = path.join(dir, "smoke.yaml");
  const models = path.join(dir, "models");
  fs.writeFileSync(scenario, SCENARIO);

  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("trains, saves, loads and evaluates a tiny configuration", async () => {
    const t = capture();
    expect(await main(["train", "--scenario", scenario, "--out", models, "--seed", "3", "--quick", "--checkpoint-every", "2"], t.io)).toBe(0);
    for (const f of ["teacher.model.json", "student.model.json", "harness.model.json", "bc/student.model.json", "bc/harness.model.json", "training.json"]) {
      expect(fs.existsSync(path.join(models, f))).toBe(true);
    }
    const state = JSON.parse(fs.readFileSync(path.join(models, "training.json"), "utf8"));
    expect(state.completed).toEqual(["data", "teacher", "bc", "bc_harness", "coevo"]);
    expect(t.err.join("")).toMatch(/train \[teacher\] step 3\/3 loss \d/);
    expect(t.err.join("")).toMatch(/max\|delta\| \d\.\d{3}/);
    // --resume with everything done retrains nothing (phases are skipped).
    const r = capture();
    expect(await main(["train", "--scenario", scenario, "--out", models, "--seed", "3", "--quick", "--resume"], r.io)).toBe(0);
    expect(r.err.join("")).not.toMatch(/\[teacher\] step/);
    // eval on the test split: all five rows, the flown rows over the requested flight.
    const e = capture();
    expect(await main(["eval", "--models", models, "--scenario", scenario, "--split", "test", "--flights", "1", "--ap-seeds", "1", "--conditions", "nominal", "--json"], e.io)).toBe(0);
    const report = JSON.parse(e.out.join(""));
    expect(report.split).toBe("test");
    expect(report.conditions[0].rows).toHaveLength(5);
    expect(report.conditions[0].rows[1].flights.flights).toBe(1);
    expect(report.conditions[0].rows[1].outcomes[0].seed).toBe(report.conditions[0].flightSeeds[0]);
    const bad = capture();
    expect(await main(["eval", "--models", models, "--scenario", scenario, "--split", "train"], bad.io)).toBe(2);
    expect(bad.err.join("")).toMatch(/--split train: evaluation may only read held-out seeds/);
  }, 120000);

  it("detect writes an original-size wire map and detections JSON", async () => {
    const img = path.join(dir, "photo.png");
    const rgb = new Uint8Array(100 * 70 * 3).map((_, i) => (i * 13) % 256);
    fs.writeFileSync(img, encodeRgbPng({ width: 100, height: 70, rgb }));
    fs.writeFileSync(path.join(dir, "notes.txt"), "not an image");
    const d = capture();
    expect(await main(["detect", "--models", models, "--harness", "on", img, "--out", path.join(dir, "out")], d.io)).toBe(0);
    const map = decodeImage(fs.readFileSync(path.join(dir, "out", "photo.wire.png")), "photo.wire.png");
    expect([map.width, map.height]).toEqual([100, 70]);
    const json = JSON.parse(fs.readFileSync(path.join(dir, "out", "photo.detections.json"), "utf8"));
    expect(json.width).toBe(100);
    expect(Array.isArray(json.detections)).toBe(true);
    const bad = capture();
    expect(await main(["detect", "--models", models, "--harness", "off", path.join(dir, "notes.txt"), "--out", path.join(dir, "out")], bad.io)).toBe(1);
    expect(bad.err.join("")).toMatch(/notes.txt: not a PNG or JPEG file/);
  }, 60000);
});
