import { Controller, type ControllerOptions } from "../../src/control/Controller";
import { ACTIONS, DEFAULT_ACTION_LIMITS, NUM_ACTIONS } from "../../src/harness/actions";
import type { Detection2D } from "../../src/control/visionTypes";

const MS = 1_000_000n;

function opts(over: Partial<ControllerOptions> = {}): ControllerOptions {
  return {
    limits: DEFAULT_ACTION_LIMITS,
    maxHorizontalSpeed_m_s: 10,
    maxVerticalSpeed_m_s: 10,
    maxYawRate_rad_s: 10,
    maxAccel_m_s2: Number.POSITIVE_INFINITY,
    smoothing: 0,
    inputTimeout_s: 0.2,
    ...over,
  };
}

function logitsFor(action: (typeof ACTIONS)[number]): Float32Array {
  const l = new Float32Array(NUM_ACTIONS).fill(-1);
  l[ACTIONS.indexOf(action)] = 2;
  return l;
}

function det(cx: number, w: number, cls: string, score: number): Detection2D {
  return {
    header: { stamp: { sec: 0, nanosec: 0 }, frame_id: "cam" },
    results: [{ hypothesis: { class_id: cls, score }, pose: { pose: { position: { x: 0, y: 0, z: 0 }, orientation: { x: 0, y: 0, z: 0, w: 1 } }, covariance: [] } }],
    bbox: { center: { position: { x: cx, y: 100 }, theta: 0 }, size_x: w, size_y: 8 },
    id: "0",
  };
}

describe("Controller", () => {
  it("hovers with no input, then follows the argmax action", () => {
    const c = new Controller(opts());
    expect(c.update(0n).mode).toBe("hover_no_input");
    expect(c.update(0n).cmd).toEqual({ vx_m_s: 0, vy_m_s: 0, vz_m_s: 0, yawRate_rad_s: 0 });
    expect(c.setLogits(logitsFor("climb"), 10n * MS)).toBe(true);
    const out = c.update(20n * MS);
    expect(out.mode).toBe("policy");
    expect(out.action).toBe(ACTIONS.indexOf("climb"));
    expect(out.cmd.vz_m_s).toBeCloseTo(DEFAULT_ACTION_LIMITS.verticalSpeed_m_s, 6);
    expect(out.cmd.vx_m_s).toBeCloseTo(DEFAULT_ACTION_LIMITS.cruiseSpeed_m_s * DEFAULT_ACTION_LIMITS.slowFraction, 6);
  });

  it("hovers on invalid logits (NaN, wrong length) and on stale logits", () => {
    const c = new Controller(opts());
    const bad = logitsFor("cruise");
    bad[3] = Number.NaN;
    expect(c.setLogits(bad, 0n)).toBe(false);
    expect(c.update(1n).mode).toBe("hover_invalid");
    expect(c.setLogits([1, 2], 0n)).toBe(false);
    expect(c.update(1n).mode).toBe("hover_invalid");
    c.setLogits(logitsFor("cruise"), 0n);
    expect(c.update(200n * MS).mode).toBe("policy");
    const stale = c.update(201n * MS);
    expect(stale.mode).toBe("hover_stale");
    expect(stale.cmd.vx_m_s).toBe(0);
  });

  it("clamps to the speed limits", () => {
    const c = new Controller(opts({ maxHorizontalSpeed_m_s: 1.5, maxVerticalSpeed_m_s: 0.5, maxYawRate_rad_s: 0.2 }));
    c.setLogits(logitsFor("cruise"), 0n);
    expect(c.update(0n).cmd.vx_m_s).toBeCloseTo(1.5, 9);
    c.setLogits(logitsFor("climb"), 0n);
    expect(c.update(0n).cmd.vz_m_s).toBeCloseTo(0.5, 9);
    c.setLogits(logitsFor("yaw_right"), 0n);
    expect(c.update(0n).cmd.yawRate_rad_s).toBeCloseTo(-0.2, 9);
  });

  it("limits acceleration: from hover to cruise at 2 m/s^2 takes 2 s in 50 ms steps", () => {
    const c = new Controller(opts({ maxAccel_m_s2: 2, inputTimeout_s: 10 }));
    c.setLogits(logitsFor("cruise"), 0n);
    expect(c.update(0n).cmd.vx_m_s).toBe(0); // no elapsed time: no change
    let v = 0;
    for (let k = 1; k <= 40; k++) {
      const next = c.update(BigInt(k) * 50n * MS).cmd.vx_m_s;
      expect(next - v).toBeLessThanOrEqual(2 * 0.05 + 1e-9);
      v = next;
    }
    expect(v).toBeCloseTo(4, 9);
  });

  it("smooths with an EMA of weight `smoothing` (closed form 1 - a^k)", () => {
    const c = new Controller(opts({ smoothing: 0.5 }));
    c.setLogits(logitsFor("cruise"), 0n);
    let v = 0;
    for (let k = 1; k <= 3; k++) v = c.update(0n).cmd.vx_m_s;
    expect(v).toBeCloseTo(4 * (1 - 0.5 ** 3), 9);
  });

  it("caps forward speed at 'slow' when the corridor gate sees a wire ahead", () => {
    const gate = { enabled: true, score: 0.5, corridorFraction: 0.3, classes: ["wire", "branch"] };
    const c = new Controller(opts({ gate }));
    c.setLogits(logitsFor("cruise"), 0n);
    c.setDetections([det(128, 200, "wire", 0.8)], 256);
    const out = c.update(0n);
    expect(out.gated).toBe(true);
    expect(out.cmd.vx_m_s).toBeCloseTo(4 * 0.35, 9);
    c.setDetections([det(10, 10, "wire", 0.9), det(128, 50, "pole_trunk", 0.9), det(128, 50, "wire", 0.4)], 256);
    expect(c.update(0n).gated).toBe(false);
  });

  it("rejects bad options with the value and range", () => {
    expect(() => new Controller(opts({ smoothing: 1 }))).toThrow("smoothing=1, expected a number in [0, 1)");
    expect(() => new Controller(opts({ inputTimeout_s: 0 }))).toThrow("inputTimeout_s=0, expected a finite number > 0");
  });
});

describe("Controller: the forward speed cap of a final approach", () => {
  it("caps the chosen action's forward speed with the cap that came with the logits (a final approach), and only those logits", () => {
    const c = new Controller(opts());
    expect(c.setLogits(logitsFor("descend"), 10n * MS, 0.5)).toBe(true);
    const out = c.update(20n * MS);
    expect(out.cmd.vx_m_s).toBeCloseTo(0.5, 9);
    expect(out.cmd.vz_m_s).toBeCloseTo(-DEFAULT_ACTION_LIMITS.verticalSpeed_m_s, 6);
    c.setLogits(logitsFor("descend"), 30n * MS);
    expect(c.update(40n * MS).cmd.vx_m_s).toBeCloseTo(DEFAULT_ACTION_LIMITS.cruiseSpeed_m_s * DEFAULT_ACTION_LIMITS.slowFraction, 6);
    // A cap that is not a speed: the input is invalid (hover), not flown uncapped.
    expect(c.setLogits(logitsFor("cruise"), 50n * MS, Number.NaN)).toBe(false);
    expect(c.update(60n * MS).mode).toBe("hover_invalid");
    expect(c.setLogits(logitsFor("cruise"), 70n * MS, -1)).toBe(false);
  });
});
