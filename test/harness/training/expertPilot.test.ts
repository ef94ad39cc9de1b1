import { expertActionName, type ExpertObservation } from "../../../src/harness/data/ExpertPilot";

const clear: ExpertObservation = { altitude_m: 10, goalBearing_rad: 0, goalDz_m: 0, threat: null };

describe("ExpertPilot", () => {
  it("cruises toward a goal straight ahead and turns toward an off-axis goal", () => {
    expect(expertActionName(clear)).toBe("cruise");
    expect(expertActionName({ ...clear, goalBearing_rad: 0.5 })).toBe("yaw_left");
    expect(expertActionName({ ...clear, goalBearing_rad: -0.5 })).toBe("yaw_right");
    expect(expertActionName({ ...clear, goalDz_m: 3 })).toBe("climb");
    expect(expertActionName({ ...clear, goalDz_m: -3 })).toBe("descend");
    expect(expertActionName({ ...clear, altitude_m: 1 })).toBe("climb");
  });

  it("leaves a wire in the corridor vertically and yaws away from branches and trunks", () => {
    const wire = (up_m: number, altitude_m = 10): ExpertObservation => ({
      ...clear,
      altitude_m,
      threat: { kind: "wire", ahead_m: 5, left_m: 0.2, up_m },
    });
    expect(expertActionName(wire(0))).toBe("climb");
    expect(expertActionName(wire(-1))).toBe("climb");
    expect(expertActionName(wire(1))).toBe("descend");
    expect(expertActionName(wire(1, 3))).toBe("climb"); // no room below 2 m + corridor
    const branch = (left_m: number): ExpertObservation => ({ ...clear, threat: { kind: "branch", ahead_m: 4, left_m, up_m: 0 } });
    expect(expertActionName(branch(0.5))).toBe("yaw_right");
    expect(expertActionName(branch(-0.5))).toBe("yaw_left");
  });

  it("ignores obstacles outside the corridor or beyond the lookahead", () => {
    const at = (ahead_m: number, left_m: number, up_m: number): ExpertObservation => ({
      ...clear,
      threat: { kind: "wire", ahead_m, left_m, up_m },
    });
    expect(expertActionName(at(20, 0, 0))).toBe("cruise");
    expect(expertActionName(at(5, 3, 0))).toBe("cruise");
    expect(expertActionName(at(5, 0, 4))).toBe("cruise");
    expect(expertActionName(at(-1, 0, 0))).toBe("cruise");
    expect(() => expertActionName({ ...clear, altitude_m: Number.NaN })).toThrow(/altitude_m=NaN/);
  });
});
