/**
 * Threat frames in the BC data: generateFrames flags the frames in which the expert reacts to an
 * obstacle in its corridor and, with threatRecordEvery, records them densely without shortening
 * the flight; trainBcStudent's threatFraction draws that share of every batch from them.
 */
import { initBackend } from "../../../src/harness/backend/initBackend";
import { expertAction, threatInCorridor } from "../../../src/harness/data/ExpertPilot";
import { generateFrames } from "../../../src/harness/data/generateFrames";
import { SeedSource, type Split } from "../../../src/harness/data/SeedSplit";
import { Student } from "../../../src/harness/models/Student";
import { STATE_DIM } from "../../../src/harness/models/stateVector";
import { trainBcStudent } from "../../../src/harness/training/trainBcStudent";
import { FakeEnvironment } from "./fakeEnvironment";

const splitOf = (seed: number): Split => (seed % 10 < 7 ? "train" : seed % 10 === 7 ? "val" : "test");
const source = new SeedSource("train", splitOf);
const factory = (seed: number): FakeEnvironment => new FakeEnvironment(seed, 30, 5, 60);

beforeAll(async () => {
  await initBackend({ prefer: "wasm" });
});

describe("threat frames", () => {
  const base = { seeds: [0, 1], source, factory, stateDim: STATE_DIM, recordEvery: 4, maxFramesPerFlight: 12, explore: 0, rngSeed: 3 };

  it("are flagged exactly where the expert has an obstacle in its corridor, and recorded densely without shortening the flight", () => {
    const sparse = generateFrames(base);
    const dense = generateFrames({ ...base, threatRecordEvery: 1 });
    const sparseThreat = sparse.frames.filter((f) => f.threat === true).length;
    const denseThreat = dense.frames.filter((f) => f.threat === true).length;
    // the regular frames are the same: the dense run only adds threat frames
    expect(dense.frames.length - denseThreat).toBe(sparse.frames.length - sparseThreat);
    // every control step in which the expert has an obstacle in its corridor is recorded: replay
    // the expert (explore 0 is deterministic) over the steps the recording covered (0..44)
    let expected = 0;
    for (const seed of [0, 1]) {
      const env = factory(seed);
      for (let step = 0; step <= (base.maxFramesPerFlight - 1) * base.recordEvery; step++) {
        const obs = env.expertObservation();
        if (threatInCorridor(obs) !== null) expected++;
        if (env.step(expertAction(obs)).type !== "running") break;
      }
    }
    expect(expected).toBeGreaterThan(0);
    expect(denseThreat).toBe(expected);
    expect(denseThreat).toBeGreaterThan(sparseThreat);
    for (const f of dense.frames) expect(typeof f.threat).toBe("boolean");
  });

  it("make up the requested share of BC batches (non-threat frames poisoned with NaN are never drawn at threatFraction 1)", () => {
    const data = generateFrames({ ...base, threatRecordEvery: 1 });
    for (const f of data.frames) if (f.threat !== true) f.state.fill(Number.NaN);
    const rows = data.grid.height / data.grid.cell_px;
    const cols = data.grid.width / data.grid.cell_px;
    const soft = data.frames.map(() => new Float32Array(rows * cols * 4));
    const student = new Student({ channels: [4, 4, 4, 4], policyHidden: [8], seed: 1 });
    try {
      expect(() => trainBcStudent(student, data, soft, { steps: 4, batch: 4, learningRate: 1e-3, seed: 1, threatFraction: 1 })).not.toThrow();
      expect(() => trainBcStudent(student, data, soft, { steps: 4, batch: 4, learningRate: 1e-3, seed: 1, threatFraction: 0 })).toThrow(/BC loss became NaN/);
      expect(() => trainBcStudent(student, data, soft, { steps: 1, batch: 1, learningRate: 1e-3, seed: 1, threatFraction: 1.5 })).toThrow(/threatFraction=1.5/);
    } finally {
      student.dispose();
    }
  });
});
