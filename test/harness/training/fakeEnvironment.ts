import type { DroneEnvironment, FlightEvent, Navigation, RenderTruth } from "../../../src/harness/data/DroneEnvironment";
import type { ExpertObservation } from "../../../src/harness/data/ExpertPilot";
import { ACTIONS } from "../../../src/harness/actions";

/**
 * A tiny deterministic stand-in for the simulator: a drone flies north along a corridor with a
 * "wire" at y = wireY_m and altitude wireAlt_m; climbing above wireAlt_m + 1 before reaching it
 * avoids the collision. The image is a 64x64 gradient with a dark horizontal line whose row
 * depends on the altitude difference (mask class 1 on that row).
 */
export class FakeEnvironment implements DroneEnvironment {
  readonly controlPeriod_s = 0.2;
  readonly width = 64;
  readonly height = 64;
  time_s = 0;
  y = 0;
  alt = 5;
  private done = false;
  /** Every seed this environment was created with (test audit). */
  static created: number[] = [];

  constructor(
    readonly seed: number,
    readonly wireY_m = 6 + (seed % 3),
    readonly wireAlt_m = 5,
    readonly goalY_m = 14,
  ) {
    FakeEnvironment.created.push(seed);
  }

  private wireRow(): number {
    return Math.max(0, Math.min(63, Math.round(32 + 8 * (this.alt - this.wireAlt_m))));
  }

  render(rgb: Uint8Array, mask?: Uint8Array, truth?: RenderTruth): void {
    const row = this.wireRow();
    // The wire is as visible as it is drawn (contrast 100+ grey levels); depth = distance ahead.
    truth?.depth?.fill(0);
    truth?.visibleMask?.fill(0);
    for (let y = 0; y < 64; y++) {
      for (let x = 0; x < 64; x++) {
        const o = (y * 64 + x) * 3;
        const v = y === row && this.y < this.wireY_m ? 20 : 120 + y + ((x * 7 + this.seed) % 13);
        rgb[o] = v;
        rgb[o + 1] = v;
        rgb[o + 2] = v;
        const wire = y === row && this.y < this.wireY_m;
        if (mask !== undefined) mask[y * 64 + x] = wire ? 1 : 0;
        if (wire && truth?.visibleMask !== undefined) truth.visibleMask[y * 64 + x] = 1;
        if (wire && truth?.depth !== undefined) truth.depth[y * 64 + x] = this.wireY_m - this.y;
      }
    }
  }

  sensorState(out: Float32Array): void {
    out.fill(0);
    out[0] = this.alt / 25 - 1;
    out[2] = this.y / 10 - 1;
  }

  altitude_m(): number {
    return this.alt;
  }

  navigation(out: Navigation): Navigation {
    out.goalBearing_rad = 0;
    out.goalDistance_m = this.goalY_m - this.y;
    out.goalDz_m = 0;
    out.altitude_m = this.alt;
    out.forwardSpeed_m_s = 2;
    out.pitch_rad = 0;
    return out;
  }

  expertObservation(): ExpertObservation {
    const ahead = this.wireY_m - this.y;
    return {
      altitude_m: this.alt,
      goalBearing_rad: 0,
      goalDz_m: 0,
      threat: ahead > 0 ? { kind: "wire", ahead_m: ahead, left_m: 0, up_m: this.wireAlt_m - this.alt } : null,
    };
  }

  step(action: number, forward_m_s?: number): FlightEvent {
    if (this.done) throw new Error("step after the end of the flight");
    // The fake moves by action only (DroneEnvironment.step: an environment that cannot fly a given forward speed throws).
    if (forward_m_s !== undefined) throw new RangeError(`FakeEnvironment cannot fly forward_m_s=${forward_m_s}`);
    const name = ACTIONS[action];
    const before = this.y;
    this.y += name === "cruise" ? 1 : name === "hover" ? 0 : 0.4;
    if (name === "climb") this.alt += 0.5;
    if (name === "descend") this.alt -= 0.5;
    this.time_s += this.controlPeriod_s;
    let ev: FlightEvent = { type: "running" };
    if (before < this.wireY_m && this.y >= this.wireY_m && Math.abs(this.alt - this.wireAlt_m) < 1) ev = { type: "collision", obstacle: "wire" };
    else if (this.y >= this.goalY_m) ev = { type: "goal" };
    else if (this.time_s > 12) ev = { type: "timeout" };
    if (ev.type !== "running") this.done = true;
    return ev;
  }
}
