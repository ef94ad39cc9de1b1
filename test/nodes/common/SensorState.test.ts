import { IMU_WINDOW, SensorState } from "../../../nodes/common/sensors/SensorState";
import { MS, fix, imu, vel } from "../fixtures";

describe("SensorState", () => {
  it("samples the IMU once per state period at multiples of the period, oldest first", () => {
    const s = new SensorState({ statePeriod_s: 0.25 });
    expect(s.statePeriod_s).toBe(0.25);
    // IMU at 200 Hz for 1 s, gyro x = the stamp in ms; frames at 30 Hz.
    let frame = 0n;
    for (let t = 0n; t <= 1000n; t += 5n) {
      s.onImu(imu(t * MS, { angular_velocity: { x: Number(t), y: 0, z: 0 } }));
      if (t * MS >= frame * 33n * MS) s.onFrame(frame++ * 33n * MS);
    }
    // Samples at 0, 250, 500, 750, 1000 ms; the window keeps the last IMU_WINDOW.
    expect(s.onFrame(1001n * MS).imu.map((x) => x.gyro_rad_s[0])).toEqual([500, 750, 1000]);
    expect(s.state.imu).toHaveLength(IMU_WINDOW);
  });

  it("takes the first message, then the first at or after each grid point, skipping missed points after a gap", () => {
    const s = new SensorState({ statePeriod_s: 0.25 });
    for (const t of [10n, 200n, 262n, 300n, 1100n, 1240n, 1250n]) s.onImu(imu(t * MS, { angular_velocity: { x: Number(t), y: 0, z: 0 } }));
    // The first message (10 ms), then the grid 250 (-> 262), 500 (none until the gap ends at 1100:
    // taken, next point 1250), 1240 ignored, 1250 taken.
    expect(s.onFrame(2000n * MS).imu.map((x) => x.gyro_rad_s[0])).toEqual([262, 1100, 1250]);
    expect(s.state.frameDt_s).toBe(0);
    expect(s.onFrame(2033n * MS).frameDt_s).toBeCloseTo(0.033, 9);
  });

  it("rejects a state period or ground altitude outside its range, naming the value", () => {
    expect(() => new SensorState({ statePeriod_s: 0 })).toThrow("statePeriod_s=0, expected (0, 10] s");
    expect(() => new SensorState({ homeAltitude_m: Number.NaN })).toThrow("homeAltitude_m=NaN");
  });

  it("measures altitude above the first fix and copies the ENU velocity", () => {
    const s = new SensorState();
    expect(Number.isNaN(s.state.altitude_m)).toBe(true);
    s.onFix(fix(0n, { altitude: 500 }));
    s.onFix(fix(0n, { altitude: 512.5 }));
    s.onVel(vel(0n, 3));
    expect(s.state.altitude_m).toBeCloseTo(12.5, 9);
    expect(s.state.velocityEnu_m_s).toEqual([3, 0, 0]);
    const fixed = new SensorState({ homeAltitude_m: 490 });
    fixed.onFix(fix(0n, { altitude: 500 }));
    expect(fixed.state.altitude_m).toBeCloseTo(10, 9);
  });

  it("reset clears the window and the first-fix home", () => {
    const s = new SensorState();
    s.onImu(imu(0n));
    s.onFix(fix(0n, { altitude: 500 }));
    s.onFrame(1n);
    s.reset();
    expect(s.state.imu).toHaveLength(0);
    s.onFix(fix(0n, { altitude: 700 }));
    expect(s.state.altitude_m).toBe(0);
    expect(s.onFrame(5n).imu).toHaveLength(0);
  });
});
