import { IMU_CHANNELS, ImuDifferencer, type ImuLike } from "../../src/vision/ImuDifferencer";

/** A sample at t = i * 10 ms with acceleration x = 0.5 * i, gyro z = 0.1 * i, orientation a slow yaw. */
function sample(i: number, opts: { tSec?: number; nanAt?: boolean; noOrientation?: boolean; flip?: boolean } = {}): ImuLike {
  const t = opts.tSec ?? 100 + i * 0.01;
  const sec = Math.floor(t);
  const nanosec = Math.round((t - sec) * 1e9);
  const yaw = 0.01 * i;
  const s = opts.flip ? -1 : 1;
  return {
    header: { stamp: { sec, nanosec } },
    orientation: { x: 0, y: 0, z: s * Math.sin(yaw / 2), w: s * Math.cos(yaw / 2) },
    orientation_covariance: [opts.noOrientation ? -1 : 0.01, 0, 0, 0, 0.01, 0, 0, 0, 0.01],
    angular_velocity: { x: 0, y: 0, z: opts.nanAt ? Number.NaN : 0.1 * i },
    linear_acceleration: { x: 0.5 * i, y: 0, z: 9.81 },
  };
}

const row = (d: ImuDifferencer, r: number): number[] => Array.from(d.values.subarray(r * IMU_CHANNELS, (r + 1) * IMU_CHANNELS));

describe("ImuDifferencer", () => {
  test("regular samples: dx_t = x_t - x_{t-1} normalised by the documented scales, newest row last, zero padding in front", () => {
    const d = new ImuDifferencer({ window: 4 });
    expect(d.push(sample(0))).toBe("first");
    expect(d.push(sample(1))).toBe("delta");
    expect(d.push(sample(2))).toBe("delta");
    expect(d.count).toBe(2);
    expect(row(d, 0).every((v) => v === 0)).toBe(true);
    const last = row(d, 3);
    expect(last[0]).toBeCloseTo(0.5 / 10, 6); // d accel x = 0.5 m/s^2 over scale 10
    expect(last[5]).toBeCloseTo(0.1 / 2, 6); // d gyro z = 0.1 rad/s over scale 2
    expect(last[8]).toBeCloseTo((Math.sin(0.01) - Math.sin(0.005)) / 0.05, 4); // d q.z over 0.05
    expect(last[10]).toBe(0);
    expect(d.values.every((v) => v >= -1 && v <= 1)).toBe(true);
  });

  test("dropped samples are detected by stamp, flagged and scaled per nominal period", () => {
    const d = new ImuDifferencer({ window: 3 });
    d.push(sample(0));
    d.push(sample(1));
    expect(d.push(sample(4))).toBe("delta"); // samples 2 and 3 dropped: dt = 30 ms
    const last = row(d, 2);
    expect(last[10]).toBe(1);
    // Acceleration changed by 1.5 over 3 periods: 0.5 per nominal period, / 10.
    expect(last[0]).toBeCloseTo(0.05, 6);
    expect(d.counters.gaps).toBe(1);
  });

  test("duplicates and reordered samples are dropped and counted; the window is unchanged", () => {
    const d = new ImuDifferencer({ window: 3 });
    d.push(sample(0));
    d.push(sample(1));
    d.push(sample(3));
    const before = Array.from(d.values);
    expect(d.push(sample(3))).toBe("duplicate");
    expect(d.push(sample(2))).toBe("out-of-order"); // arrives late
    expect(Array.from(d.values)).toEqual(before);
    expect(d.counters).toMatchObject({ duplicates: 1, outOfOrder: 1, accepted: 3, nonFinite: 0 });
    expect(d.push(sample(4))).toBe("delta");
    expect(row(d, 2)[0]).toBeCloseTo(0.05, 6);
  });

  test("NaN samples are rejected and counted, the next valid sample differences against the last valid one", () => {
    const d = new ImuDifferencer({ window: 2 });
    d.push(sample(0));
    expect(d.push(sample(1, { nanAt: true }))).toBe("non-finite");
    expect(d.push({ ...sample(1), linear_acceleration: { x: Infinity, y: 0, z: 0 } })).toBe("non-finite");
    expect(d.counters.nonFinite).toBe(2);
    expect(d.push(sample(1))).toBe("delta");
    expect(row(d, 1)[5]).toBeCloseTo(0.05, 6);
    expect(d.values.every((v) => Number.isFinite(v))).toBe(true);
  });

  test("a backwards time jump or a long silence clears the history, as tf2 does", () => {
    const d = new ImuDifferencer({ window: 2 });
    d.push(sample(0));
    d.push(sample(1));
    expect(d.count).toBe(1);
    expect(d.push(sample(2, { tSec: 50 }))).toBe("reset"); // 50 s back: bag loop
    expect(d.count).toBe(0);
    expect(d.values.every((v) => v === 0)).toBe(true);
    expect(d.push(sample(3, { tSec: 50.01 }))).toBe("delta");
    expect(d.push(sample(4, { tSec: 52 }))).toBe("reset"); // 2 s silence > resetGapS
    expect(d.counters.resets).toBe(2);
  });

  test("orientation: ignored when covariance[0] = -1; quaternion sign flips do not produce jumps", () => {
    const d = new ImuDifferencer({ window: 2 });
    d.push(sample(0));
    d.push(sample(1, { flip: true })); // -q: the same rotation
    expect(Math.abs(row(d, 1)[9]!)).toBeLessThan(0.01);
    d.push(sample(2, { noOrientation: true }));
    expect(row(d, 1).slice(6, 10)).toEqual([0, 0, 0, 0]);
  });

  test("large deltas clip to [-1, 1]; bad options name the value", () => {
    const d = new ImuDifferencer({ window: 1 });
    d.push(sample(0));
    d.push({ ...sample(1), linear_acceleration: { x: 500, y: -500, z: 9.81 } });
    expect(row(d, 0).slice(0, 2)).toEqual([1, -1]);
    expect(() => new ImuDifferencer({ window: 0 })).toThrow("window=0, expected an integer >= 1");
    expect(() => new ImuDifferencer({ ranges: { gyroDeltaRadS: 0 } })).toThrow("gyroDeltaRadS=0");
  });
});
