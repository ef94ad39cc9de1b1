import { IMU_WINDOW, SensorState } from "../../../nodes/common/SensorState";
import { MS, fix, imu, vel } from "../fixtures";

describe("SensorState", () => {
  it("samples the IMU at frame times, oldest first, keeping IMU_WINDOW samples", () => {
    const s = new SensorState();
    for (let f = 1; f <= 5; f++) {
      // Several IMU messages per frame: only the latest at frame time counts.
      s.onImu(imu(0n, { angular_velocity: { x: -1, y: 0, z: 0 } }));
      s.onImu(imu(0n, { angular_velocity: { x: f, y: 0, z: 0 } }));
      s.onFrame(BigInt(f) * 33n * MS);
    }
    expect(s.state.imu.map((x) => x.gyro_rad_s[0])).toEqual([3, 4, 5]);
    expect(s.state.imu).toHaveLength(IMU_WINDOW);
    expect(s.state.frameDt_s).toBeCloseTo(0.033, 9);
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
