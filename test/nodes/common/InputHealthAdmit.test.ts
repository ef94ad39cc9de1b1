import { InputHealth } from "../../../nodes/common/ros/InputHealth";
import type { Logger } from "../../../src/ros/graph/types";

function silentLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return {
    name: "t",
    warnings,
    debug: () => undefined,
    info: () => undefined,
    warn: (m) => warnings.push(m),
    error: () => undefined,
    fatal: () => undefined,
    setLevel: () => undefined,
    throttle: (_l, _k, _p, m) => warnings.push(m),
  };
}

describe("InputHealth.admit (the shared subscriber gate)", () => {
  it("drops and counts a rejected message without computing the stamp verdict", () => {
    const h = new InputHealth(silentLogger());
    let stampChecked = false;
    const ok = h.admit("imu/data", { type: "reject", reason: "non_finite", detail: "NaN" }, () => {
      stampChecked = true;
      return { type: "ok" };
    });
    expect(ok).toBe(false);
    expect(stampChecked).toBe(false);
    expect(h.count("imu/data", "non_finite")).toBe(1);
  });
  it("drops and counts a stamp drop, keeps an ok message", () => {
    const h = new InputHealth(silentLogger());
    expect(h.admit("gps/fix", { type: "ok" }, () => ({ type: "drop", reason: "duplicate", detail: "same stamp" }))).toBe(false);
    expect(h.count("gps/fix", "duplicate")).toBe(1);
    expect(h.admit("gps/fix", { type: "ok" }, () => ({ type: "ok" }))).toBe(true);
    expect(h.total).toBe(1);
  });
  it("keeps a message after a backward time jump, counts it and runs onJumpBack", () => {
    const h = new InputHealth(silentLogger());
    let cleared = 0;
    expect(h.admit("camera/image_raw", { type: "ok" }, () => ({ type: "jump_back", detail: "clock reset" }), () => cleared++)).toBe(true);
    expect(cleared).toBe(1);
    expect(h.timeJumps).toBe(1);
    expect(h.admit("camera/image_raw", { type: "ok" }, () => ({ type: "jump_back", detail: "again" }))).toBe(true);
    expect(h.timeJumps).toBe(2);
  });
});
