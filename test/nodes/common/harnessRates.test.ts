import * as tf from "@tensorflow/tfjs";

import { HarnessCorrector } from "../../../nodes/common/models/HarnessCorrector";
import { SensorState } from "../../../nodes/common/sensors/SensorState";
import { StudentDetector } from "../../../nodes/common/models/StudentDetector";
import { HarnessNet } from "../../../src/harness/models/HarnessNet";
import { Student } from "../../../src/harness/models/Student";
import { MS, fix, image, imu, vel } from "../fixtures";

const frame = (t: bigint, shade: number) => image(t, { width: 64, height: 64, step: 192, data: new Uint8Array(64 * 64 * 3).fill(shade) });

describe("SensorState frame flags", () => {
  it("marks the first frame at or after each state-period multiple and keeps the latest gyro", () => {
    const s = new SensorState({ statePeriod_s: 0.25 });
    const flags: boolean[] = [];
    for (const ms of [10n, 100n, 240n, 260n, 300n, 520n, 740n, 760n]) flags.push(s.onFrame(ms * MS).newStatePeriod);
    expect(flags).toEqual([true, false, false, true, false, true, false, true]);
    s.onImu(imu(0n, { angular_velocity: { x: 1, y: 2, z: 3 } }));
    s.onImu(imu(5n * MS, { angular_velocity: { x: 4, y: 5, z: 6 } }));
    expect(s.state.latestGyro_rad_s).toEqual([4, 5, 6]);
    expect(s.state.imu.at(-1)?.gyro_rad_s ?? [0, 0, 0]).toEqual([0, 0, 0]);
    expect(s.onFrame(800n * MS).imu.map((x) => x.gyro_rad_s[0])).toEqual([1]);
    expect(s.state.statePeriod_s).toBe(0.25);
    s.reset();
    expect(s.state.latestGyro_rad_s).toEqual([0, 0, 0]);
    expect(s.onFrame(900n * MS).newStatePeriod).toBe(true);
  });
});

describe("HarnessCorrector |ds/dt| over state periods", () => {
  beforeAll(async () => {
    await tf.setBackend("cpu");
  });

  it("frames between state periods do not enter the rate history (same correction as without them)", () => {
    const student = new Student({ channels: [4, 4, 4, 4], policyHidden: [8], seed: 5 });
    const harness = new HarnessNet({ seed: 7 });
    const detector = new StudentDetector(student, 64, 64);
    const run = (frameMs: bigint[]) => {
      const corrector = new HarnessCorrector(harness, { ownsModel: false });
      const sensors = new SensorState({ statePeriod_s: 0.25 });
      let last = new Float32Array(0);
      for (const ms of frameMs) {
        const t = ms * MS;
        // The altitude climbs 1 m per 100 ms: every frame's state differs.
        sensors.onImu(imu(t, { angular_velocity: { x: Number(ms) / 1000, y: 0, z: 0 } }));
        sensors.onFix(fix(t, { altitude: 500 + Number(ms) / 100 }));
        sensors.onVel(vel(t, 2));
        const im = frame(t, 100);
        const out = detector.infer(im, sensors.onFrame(t));
        last = Float32Array.from(corrector.correct(im, out, sensors.state).actionDelta);
      }
      corrector.dispose();
      return last;
    };
    const periodsOnly = run([0n, 250n, 500n]);
    const everyFrame = run([0n, 33n, 66n, 100n, 133n, 166n, 200n, 233n, 250n, 283n, 316n, 350n, 383n, 416n, 450n, 483n, 500n]);
    expect(Math.max(...Array.from(periodsOnly).map(Math.abs))).toBeGreaterThan(0);
    for (let i = 0; i < periodsOnly.length; i++) expect(everyFrame[i]).toBeCloseTo(periodsOnly[i]!, 6);
    detector.dispose();
    harness.dispose();
  });
});
