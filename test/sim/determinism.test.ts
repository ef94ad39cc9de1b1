import { createHash } from "node:crypto";
import { fastScenario } from "./fixtures";
import { buildWorld, createSimulation, loadScenarioFile, parseScenario, splitOfSeed, seedsOfSplit, assertSeedInSplit, Rng } from "../../sim";

const scenario = fastScenario();

function flyAndHash(seed: number): string {
  const sim = createSimulation(scenario, { seed });
  const W = sim.camera.width;
  const H = sim.camera.height;
  const rgb = new Uint8Array(W * H * 3);
  const mask = new Uint8Array(W * H);
  const h = createHash("sha256");
  for (let f = 0; f < 3; f++) {
    sim.renderCamera({ rgb, mask });
    h.update(rgb);
    h.update(mask);
    const imu = sim.readImu();
    h.update(JSON.stringify(imu));
    sim.step({ vx_m_s: 4, vy_m_s: 0.5, vz_m_s: 0, yawRate_rad_s: 0.1 }, 1 / 30);
  }
  h.update(JSON.stringify(sim.readGpsFix()));
  return h.digest("hex");
}

describe("determinism", () => {
  it("gives the same frames, masks and sensor values byte for byte for the same seed", () => {
    expect(flyAndHash(11)).toBe(flyAndHash(11));
  });

  it("gives different frames for different seeds", () => {
    expect(flyAndHash(11)).not.toBe(flyAndHash(12));
  });

  it("draws structures, sun and exposure independently of the ground texture size", () => {
    const a = buildWorld(fastScenario("default", 64), 21);
    const b = buildWorld(fastScenario("default", 256), 21);
    expect(Array.from(a.segments.a)).toEqual(Array.from(b.segments.a));
    expect(a.sky.sunDir).toEqual(b.sky.sunDir);
    expect(a.exposure).toBe(b.exposure);
  });

  it("Rng streams repeat for a seed and have the moments of their distributions", () => {
    const a = new Rng(5);
    const b = new Rng(5);
    for (let i = 0; i < 100; i++) expect(a.nextU32()).toBe(b.nextU32());
    const r = new Rng(9);
    let s = 0;
    let s2 = 0;
    const n = 20000;
    for (let i = 0; i < n; i++) {
      const x = r.normal();
      s += x;
      s2 += x * x;
    }
    // Standard errors: mean 1/sqrt(n) = 0.007, variance sqrt(2/n) = 0.01; allow ~4 sigma.
    expect(Math.abs(s / n)).toBeLessThan(0.03);
    expect(Math.abs(s2 / n - 1)).toBeLessThan(0.04);
  });
});

describe("seed splits", () => {
  it("partitions seeds about 70/15/15 and refuses a seed of another split", () => {
    const counts = { train: 0, val: 0, test: 0 };
    for (let s = 0; s < 10000; s++) counts[splitOfSeed(s)]++;
    expect(counts.train / 10000).toBeCloseTo(0.7, 1);
    expect(counts.val / 10000).toBeCloseTo(0.15, 1);
    expect(counts.test / 10000).toBeCloseTo(0.15, 1);
    const [testSeed] = seedsOfSplit("test", 1);
    expect(testSeed).toBeDefined();
    expect(() => assertSeedInSplit(testSeed!, "train")).toThrow(/belongs to the "test" split, not "train"/);
    expect(() => createSimulation(scenario, { seed: testSeed!, split: "train" })).toThrow(/not "train"/);
    expect(() => createSimulation(scenario, { seed: testSeed!, split: "test" })).not.toThrow();
  });
});

describe("scenario validation", () => {
  it("fills defaults for missing keys", () => {
    const s = parseScenario("name: x\nwires:\n  lines: 1\n", "x.yaml");
    expect(s.wires.lines).toEqual({ min: 1, max: 1 });
    expect(s.camera.width).toBe(256);
  });
  it("names file, line and key for an unknown key", () => {
    expect(() => parseScenario("name: x\nwires:\n  lines: 1\n  thickness: 3\n", "s.yaml")).toThrow(/^s\.yaml:4: wires\.thickness: unknown key/);
  });
  it("names file, line and key for an out-of-range value", () => {
    expect(() => parseScenario("wires:\n  radius_m: [0.2, 0.3]\n", "s.yaml")).toThrow("s.yaml:2: wires.radius_m: min=0.2 is outside [0.001, 0.1]");
  });
  it("rejects min > max, non-numbers and non-integer counts", () => {
    expect(() => parseScenario("trees:\n  height_m: [9, 3]\n", "s.yaml")).toThrow("s.yaml:2: trees.height_m: min=9 > max=3");
    expect(() => parseScenario("camera:\n  width: wide\n", "s.yaml")).toThrow(/s\.yaml:2: camera\.width: expected a finite number, got string "wide"/);
    expect(() => parseScenario("camera:\n  width: 100.5\n", "s.yaml")).toThrow(/camera\.width: value=100\.5 must be an integer/);
  });
  it("loads the bundled scenarios", () => {
    expect(loadScenarioFile("default").name).toBe("default");
    expect(loadScenarioFile("trees_only").wires.lines.max).toBe(0);
  });
});
