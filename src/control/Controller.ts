/**
 * Corrected action logits (+ optional obstacle detections) -> body FLU velocity command.
 *
 * The policy head's logits (after the harness correction, pi_corrected = softmax(logits + delta),
 * SPEC "The Harness method") pick an action by argmax (softmax is monotone, so argmax of the
 * logits is argmax of pi); `actionToCommand` maps it to a body velocity; the command is then
 * clamped to the speed limits, optionally smoothed (exponential moving average) and rate-limited
 * (acceleration limit). When the logits are missing, invalid (wrong length, NaN/Inf) or older
 * than `inputTimeout_s`, the output is hover (all zeros) immediately, without the acceleration
 * ramp: the autopilot's own velocity loop brakes the vehicle.
 *
 * Optional corridor gate: a detection of a gated class (default wire and branch) with score >=
 * `gateScore` whose box overlaps the central vertical corridor of the image caps forward speed
 * at the "slow" speed. It is off by default (the learned policy decides); enable it as a
 * belt-and-braces rule on real aircraft.
 *
 * Allocation: none per update (the logits are copied into a preallocated buffer; the command
 * object is reused: copy it if you keep it).
 */
import { ACTIONS, NUM_ACTIONS, actionToCommand, type ActionLimits, type BodyVelocityCommand } from "./actions";
import type { Detection2D } from "./visionTypes";

export type ControllerOptions = {
  limits: ActionLimits;
  /** Clamp on sqrt(vx^2 + vy^2), m/s. */
  maxHorizontalSpeed_m_s: number;
  /** Clamp on |vz|, m/s. */
  maxVerticalSpeed_m_s: number;
  /** Clamp on |yaw rate|, rad/s. */
  maxYawRate_rad_s: number;
  /** Largest change of each linear component per second, m/s^2 (Infinity disables). */
  maxAccel_m_s2: number;
  /** EMA weight of the previous command in [0, 1); 0 disables smoothing. */
  smoothing: number;
  /** Logits older than this (s, node clock) are stale -> hover. */
  inputTimeout_s: number;
  /** Corridor gate; default disabled. */
  gate?: { enabled: boolean; score: number; corridorFraction: number; classes: readonly string[] };
};

export type ControllerMode = "policy" | "hover_no_input" | "hover_invalid" | "hover_stale";

export type ControllerOutput = {
  readonly cmd: BodyVelocityCommand;
  /** Chosen action index, or the hover index when falling back. */
  action: number;
  mode: ControllerMode;
  gated: boolean;
};

const HOVER = ACTIONS.indexOf("hover");
const NS_PER_S = 1e9;

function check(name: string, value: number, ok: boolean, range: string): void {
  if (!ok) throw new RangeError(`${name}=${value}, expected ${range}`);
}

export function validateControllerOptions(o: ControllerOptions): void {
  check("maxHorizontalSpeed_m_s", o.maxHorizontalSpeed_m_s, o.maxHorizontalSpeed_m_s >= 0, "a number >= 0");
  check("maxVerticalSpeed_m_s", o.maxVerticalSpeed_m_s, o.maxVerticalSpeed_m_s >= 0, "a number >= 0");
  check("maxYawRate_rad_s", o.maxYawRate_rad_s, o.maxYawRate_rad_s >= 0, "a number >= 0");
  check("maxAccel_m_s2", o.maxAccel_m_s2, o.maxAccel_m_s2 > 0, "a number > 0 (Infinity disables)");
  check("smoothing", o.smoothing, o.smoothing >= 0 && o.smoothing < 1, "a number in [0, 1)");
  check("inputTimeout_s", o.inputTimeout_s, o.inputTimeout_s > 0 && Number.isFinite(o.inputTimeout_s), "a finite number > 0");
  if (o.gate) {
    check("gate.score", o.gate.score, o.gate.score >= 0 && o.gate.score <= 1, "a number in [0, 1]");
    check("gate.corridorFraction", o.gate.corridorFraction, o.gate.corridorFraction > 0 && o.gate.corridorFraction <= 1, "a number in (0, 1]");
  }
}

export class Controller {
  private readonly logits = new Float32Array(NUM_ACTIONS);
  private logitsStampNs: bigint | undefined;
  private logitsValid = false;
  /** The forward speed cap that came with the logits (a final approach), m/s; undefined for none. */
  private forwardCap_m_s: number | undefined;
  private gateActive = false;
  private lastUpdateNs: bigint | undefined;
  private readonly target: BodyVelocityCommand = { vx_m_s: 0, vy_m_s: 0, vz_m_s: 0, yawRate_rad_s: 0 };
  private readonly output: ControllerOutput = {
    cmd: { vx_m_s: 0, vy_m_s: 0, vz_m_s: 0, yawRate_rad_s: 0 },
    action: HOVER,
    mode: "hover_no_input",
    gated: false,
  };

  constructor(private options: ControllerOptions) {
    validateControllerOptions(options);
  }

  setOptions(options: ControllerOptions): void {
    validateControllerOptions(options);
    this.options = options;
  }

  /**
   * Records the latest corrected logits received at `stampNs` (node clock), with a cap on the
   * chosen action's forward speed (m/s; the planner's final approach, src/control/arrival.ts) or
   * none. Returns false and marks the input invalid when the length is not NUM_ACTIONS, a value is
   * not finite, or the cap is not a finite speed >= 0.
   */
  setLogits(logits: ArrayLike<number>, stampNs: bigint, forwardCap_m_s?: number): boolean {
    this.logitsStampNs = stampNs;
    this.forwardCap_m_s = forwardCap_m_s;
    if (logits.length !== NUM_ACTIONS || (forwardCap_m_s !== undefined && !(Number.isFinite(forwardCap_m_s) && forwardCap_m_s >= 0))) {
      this.logitsValid = false;
      return false;
    }
    for (let i = 0; i < NUM_ACTIONS; i++) {
      const v = logits[i]!;
      if (!Number.isFinite(v)) {
        this.logitsValid = false;
        return false;
      }
      this.logits[i] = v;
    }
    this.logitsValid = true;
    return true;
  }

  /** Updates the corridor gate from the latest corrected detections on a `width`-px-wide image. */
  setDetections(detections: readonly Detection2D[], imageWidth: number): void {
    const gate = this.options.gate;
    this.gateActive = false;
    if (!gate?.enabled || !(imageWidth > 0)) return;
    const half = (gate.corridorFraction * imageWidth) / 2;
    const lo = imageWidth / 2 - half, hi = imageWidth / 2 + half;
    for (const d of detections) {
      const x0 = d.bbox.center.position.x - d.bbox.size_x / 2;
      const x1 = d.bbox.center.position.x + d.bbox.size_x / 2;
      if (x1 < lo || x0 > hi) continue;
      for (const h of d.results) {
        if (h.hypothesis.score >= gate.score && gate.classes.includes(h.hypothesis.class_id)) {
          this.gateActive = true;
          return;
        }
      }
    }
  }

  /** Forgets inputs and the previous command (e.g. on deactivate or a clock jump backward). */
  reset(): void {
    this.logitsStampNs = undefined;
    this.logitsValid = false;
    this.forwardCap_m_s = undefined;
    this.gateActive = false;
    this.lastUpdateNs = undefined;
    const c = this.output.cmd;
    c.vx_m_s = 0; c.vy_m_s = 0; c.vz_m_s = 0; c.yawRate_rad_s = 0;
  }

  /** Computes the command at `nowNs` (node clock). The returned object is reused. */
  update(nowNs: bigint): ControllerOutput {
    const o = this.options;
    const out = this.output;
    const cmd = out.cmd;
    const dt_s = this.lastUpdateNs === undefined || nowNs <= this.lastUpdateNs ? 0 : Number(nowNs - this.lastUpdateNs) / NS_PER_S;
    this.lastUpdateNs = nowNs;
    out.gated = false;
    let mode: ControllerMode = "policy";
    if (this.logitsStampNs === undefined) mode = "hover_no_input";
    else if (!this.logitsValid) mode = "hover_invalid";
    else if (Number(nowNs - this.logitsStampNs) / NS_PER_S > o.inputTimeout_s) mode = "hover_stale";
    out.mode = mode;
    if (mode !== "policy") {
      out.action = HOVER;
      cmd.vx_m_s = 0; cmd.vy_m_s = 0; cmd.vz_m_s = 0; cmd.yawRate_rad_s = 0;
      return out;
    }
    let best = 0;
    for (let i = 1; i < NUM_ACTIONS; i++) if (this.logits[i]! > this.logits[best]!) best = i;
    out.action = best;
    const t = actionToCommand(best, o.limits, this.target);
    if (this.forwardCap_m_s !== undefined && t.vx_m_s > this.forwardCap_m_s) t.vx_m_s = this.forwardCap_m_s;
    if (this.gateActive) {
      const slow = o.limits.cruiseSpeed_m_s * o.limits.slowFraction;
      if (t.vx_m_s > slow) {
        t.vx_m_s = slow;
        out.gated = true;
      }
    }
    // Speed limits.
    const h = Math.hypot(t.vx_m_s, t.vy_m_s);
    if (h > o.maxHorizontalSpeed_m_s && h > 0) {
      const k = o.maxHorizontalSpeed_m_s / h;
      t.vx_m_s *= k; t.vy_m_s *= k;
    }
    t.vz_m_s = clamp(t.vz_m_s, o.maxVerticalSpeed_m_s);
    t.yawRate_rad_s = clamp(t.yawRate_rad_s, o.maxYawRate_rad_s);
    // Smoothing, then the acceleration limit relative to the previous command.
    const a = o.smoothing;
    // With no elapsed time (first update, or a repeated stamp) a finite limit allows no change.
    const step = Number.isFinite(o.maxAccel_m_s2) ? o.maxAccel_m_s2 * dt_s : Number.POSITIVE_INFINITY;
    cmd.vx_m_s = limitStep(cmd.vx_m_s, a * cmd.vx_m_s + (1 - a) * t.vx_m_s, step);
    cmd.vy_m_s = limitStep(cmd.vy_m_s, a * cmd.vy_m_s + (1 - a) * t.vy_m_s, step);
    cmd.vz_m_s = limitStep(cmd.vz_m_s, a * cmd.vz_m_s + (1 - a) * t.vz_m_s, step);
    cmd.yawRate_rad_s = a * cmd.yawRate_rad_s + (1 - a) * t.yawRate_rad_s;
    return out;
  }
}

function clamp(v: number, limit: number): number {
  return v > limit ? limit : v < -limit ? -limit : v;
}

/** Moves from `prev` toward `next` by at most `step`. */
function limitStep(prev: number, next: number, step: number): number {
  const d = next - prev;
  return d > step ? prev + step : d < -step ? prev - step : next;
}
