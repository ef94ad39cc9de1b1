import { ACTIONS, DEFAULT_ACTION_LIMITS, actionToCommand } from "./actions";

describe("actionToCommand", () => {
  it("maps every action to a body FLU command within the limits", () => {
    const l = DEFAULT_ACTION_LIMITS;
    for (let a = 0; a < ACTIONS.length; a++) {
      const c = actionToCommand(a, l);
      expect(Math.abs(c.vx_m_s)).toBeLessThanOrEqual(l.cruiseSpeed_m_s);
      expect(Math.abs(c.vz_m_s)).toBeLessThanOrEqual(l.verticalSpeed_m_s);
      expect(Math.abs(c.yawRate_rad_s)).toBeLessThanOrEqual(l.yawRate_rad_s);
    }
    expect(actionToCommand(ACTIONS.indexOf("hover"), l)).toEqual({ vx_m_s: 0, vy_m_s: 0, vz_m_s: 0, yawRate_rad_s: 0 });
    expect(actionToCommand(ACTIONS.indexOf("yaw_left"), l).yawRate_rad_s).toBeGreaterThan(0);
    expect(actionToCommand(ACTIONS.indexOf("climb"), l).vz_m_s).toBeGreaterThan(0);
  });
  it("rejects an out-of-range action with a message naming it", () => {
    expect(() => actionToCommand(7, DEFAULT_ACTION_LIMITS)).toThrow("action=7, expected an integer in [0, 6]");
  });
});
