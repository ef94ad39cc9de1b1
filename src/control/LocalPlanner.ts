/**
 * A transparent local planner over the forward camera's near-threat grid, in the spirit of the
 * vector field histogram (VFH: Borenstein & Koren, "The vector field histogram - fast obstacle
 * avoidance for mobile robots", IEEE Trans. Robotics and Automation 7(3), 1991) and of the cost
 * function of VFH+ (Ulrich & Borenstein, ICRA 1998, section 4: a candidate direction is scored by
 * how blocked it is and how far it is from the target direction).
 *
 * VFH builds a polar histogram of obstacle density around the robot and steers into a free
 * valley near the target direction. Here the camera grid already is that histogram in angular
 * coordinates: every cell is a viewing direction (azimuth, elevation in the body frame, REP-103
 * FLU) and holds the probability that an obstacle within the planner horizon lies along it. The
 * candidate directions are the 7 discrete manoeuvres of `./actions`, and each is scored:
 *
 *   logit_a = goalScore_a - threatCost_a + altitudeScore_a + shapeScore_a
 *
 * - Window. The drone's body sweeps a corridor of radius clearance_m; seen from range_m it spans
 *   R = atan(clearance_m / range_m) + half a cell around the direction of flight. A cell's weight
 *   in a window is the kernel 1 - (d/R)^2 of its angle d to the window direction (0 beyond R), so
 *   obstacles on the flight line count fully and those at the corridor's edge, which a small range
 *   error would move out of it, count little.
 * - Arcs. climb/descend/yaw_* do not fly one direction: they sweep from the current direction
 *   (az 0, el 0) to their target (climb: el = atan2(vz, slow speed); yaw: az = yawRate * horizon/2,
 *   the mean heading change over the horizon). The window is the union of `arcSamples` windows
 *   along that arc, with weights rising linearly from `arcStartWeight` at the start to 1 at the
 *   end: the drone leaves the start direction as the manoeuvre takes effect, so an obstacle there
 *   only matters if it is very close, while the end direction is where the drone will be flying. A
 *   target outside the camera's view is clipped to the view's edge: nothing beyond it is seen, and
 *   the edge cells are the last evidence along that arc (climb's target, 47 deg up, is above the
 *   top edge at +40 deg with the default camera).
 * - blocked_a in [0, 1] is a soft maximum (the Boltzmann operator sum x e^(x/T) / sum e^(x/T),
 *   computed stably by subtracting the max) of x = weight * p over the window. Not noisy-OR:
 *   neighbouring cells see the same obstacle, so their probabilities are not independent evidence,
 *   and noisy-OR over a 100-cell window turns 2 % background noise into 87 % blocked. Unlike a
 *   hard max it is smooth in every cell, and it suppresses isolated weak cells (below ~T ln n).
 * - threatCost_a = wThreat * speedFactor_a * blocked_a: cruise 1, the manoeuvres at slow speed
 *   manoeuvreThreatFactor, hover hoverThreatFactor * (forward speed / cruise) (braking from speed
 *   still carries the drone straight ahead, so hover uses the cruise window's blocked).
 * - goalScore_a = (1 - blocked_a) * (wGoal * progress_a + heading and altitude bonuses): progress is
 *   how much closer to the goal a straight flight at a's speed and mean heading over the horizon
 *   gets, over the cruise distance (in [-1, 1]; far from the goal it is speed fraction * cos(heading
 *   change - bearing), near it overshooting counts against). Scaled by the chance the path is free:
 *   a blocked path makes no progress. Hover has a constant cost (no progress).
 * - altitudeScore: below minAltitude_m climb dominates; descend is penalised when the altitude
 *   after descending over the horizon would fall below minAltitude_m, climb when it would exceed
 *   maxAltitude_m.
 * - shapeScore, scaled by blocked_cruise (zero when the way ahead is free): the window scoring
 *   alone leaves climb and descend nearly tied for a wire on the flight line (they differ only by
 *   its small offset from it), and the two yaws for a trunk near the centre, so (i) climb gets a bonus when it is free (the expert pilot's rule:
 *   leave a blocked path upward; wires sag and the ground is below), and (ii) the manoeuvre that
 *   turns toward the threat-weighted centroid of the cruise window (its azimuth and elevation over
 *   R) pays for it: a wire clearly above the flight line makes climbing costly and descending
 *   free, a trunk to the left makes yaw_left costly.
 *
 * Angles: body frame FLU, azimuth positive left, elevation positive up (REP-103). The per-cell
 * directions and windows are computed once per grid shape; score() allocates nothing.
 */
import { ACTIONS, DEFAULT_ACTION_LIMITS, NUM_ACTIONS, type ActionLimits } from "./actions";
import type { Navigation } from "./navigation";

export type PlannerInput = {
  /** Near-threat probability per cell in [0,1], rows*cols, row-major, row 0 = top. Non-finite values are treated as 1 (unknown = blocked) and counted; finite values are clamped to [0,1]. */
  threat: Float32Array;
  rows: number;
  cols: number;
  /** Image size (px) the grid covers. */
  width: number;
  height: number;
  altitude_m: number;
  /** Current forward speed (body x), m/s. */
  forwardSpeed_m_s: number;
  /** Goal relative to the heading: bearing positive left (rad), horizontal distance (m), goal altitude minus altitude (m). */
  goalBearing_rad: number;
  goalDistance_m: number;
  goalDz_m: number;
  /**
   * Body pitch, rad, REP-103 FLU (positive = nose down), from the autopilot's attitude estimate
   * (sensor_msgs/Imu orientation). A multirotor tilts to accelerate, and the camera tilts with it:
   * a wire at the flight level moves up the image by f*tan(pitch). The grid is resampled along its
   * rows to the level attitude before scoring (small-angle shift, linear interpolation; rows that
   * leave the view read 0). Default 0.
   */
  bodyPitch_rad?: number;
};

/** A near-threat grid over an image (PlannerInput's perception half). */
export type ThreatGrid = Pick<PlannerInput, "threat" | "rows" | "cols" | "width" | "height">;

/** The planner's input from a threat grid and the navigation state (the one place both meet: nodes, eval, main job). */
export function plannerInput(grid: ThreatGrid, nav: Readonly<Navigation>): PlannerInput {
  return {
    threat: grid.threat,
    rows: grid.rows,
    cols: grid.cols,
    width: grid.width,
    height: grid.height,
    altitude_m: nav.altitude_m,
    forwardSpeed_m_s: nav.forwardSpeed_m_s,
    goalBearing_rad: nav.goalBearing_rad,
    goalDistance_m: nav.goalDistance_m,
    goalDz_m: nav.goalDz_m,
    bodyPitch_rad: nav.pitch_rad,
  };
}

/** Index of the largest logit (the lowest index on a tie). */
export function argmaxAction(logits: ArrayLike<number>): number {
  let best = 0;
  for (let a = 1; a < logits.length; a++) if ((logits[a] ?? -Infinity) > (logits[best] ?? -Infinity)) best = a;
  return best;
}

export type PlannerOptions = {
  // Defaults marked "the expert's" are those of src/harness/data/ExpertPilot.ts, which this planner
  // should agree with where the camera shows what the expert's privileged state shows.
  /** Horizontal field of view, rad. Default pi/2 (the simulator camera, sim/Scenario.ts). */
  hfov_rad: number;
  /** Downward pitch of the optical axis from body x, rad. Default 5 deg (the simulator camera, sim/Scenario.ts). */
  cameraPitch_rad: number;
  /** Planning horizon, s. Default 2.5 (the expert's 10 m lookahead at 4 m/s cruise). */
  horizon_s: number;
  /** Corridor radius: drone radius + obstacle radius + margin, m. Default 1.5 (the expert's corridor half-width). */
  clearance_m: number;
  /** Range at which the corridor is turned into an angle, m. Default 8 (the middle of the near-threat band, under 12 m). */
  range_m: number;
  /** Windows along a manoeuvre's arc, >= 2. Default 6 (spacing under R for climb's 40 deg arc, so the windows overlap). */
  arcSamples: number;
  /**
   * Weight of the arc's start window, in [0, 1]; rises linearly to 1 at the end. Default 0.25:
   * the start direction is still flown for roughly the first fifth of the horizon (a 0.6 rad/s yaw
   * leaves the 12 deg window after 0.35 s; a climb first has to build up its vertical speed).
   */
  arcStartWeight: number;
  /** Temperature of the soft maximum. Default 0.05 (within 1 % of the max for one strong cell in a 100-cell window). */
  softMaxTemperature: number;
  /**
   * Gain on the threat probabilities before scoring, p' = min(1, gain * p): a detector's sigmoid is
   * not the oracle's 0/1, and a gain recalibrates an under-confident one (chosen on validation
   * seeds, docs/pipeline.md). Default 1.
   */
  threatGain: number;
  /** Threat weight. Default 3 (a fully blocked cruise costs more than its best progress, wGoal). */
  wThreat: number;
  /** Threat factor of the manoeuvres at slow speed. Default 0.6 (slow speed is 0.35 of cruise, but braking from cruise takes the first second). */
  manoeuvreThreatFactor: number;
  /** Threat factor of hover at cruise speed, scaled by forward speed / cruise. Default 0.25 (braking distance; below manoeuvreThreatFactor so stopping stays the least bad when all is blocked). */
  hoverThreatFactor: number;
  /** Progress weight. Default 2 (cruise toward a free goal leads the next action by ~1.3). */
  wGoal: number;
  /** Bonus of the yaw toward the goal once |bearing| > headingTolerance_rad. Default 2. */
  wHeading: number;
  /** Default 0.25 rad (the expert's). */
  headingTolerance_rad: number;
  /** Width of the ramp from no bonus to the full bonus past the tolerance, rad. Default 0.1. */
  headingRamp_rad: number;
  /** Bonus of climb/descend toward the goal altitude once |goalDz| > altitudeTolerance_m. Default 2.5. */
  wAltitudeGoal: number;
  /** Default 1 m (the expert's). */
  altitudeTolerance_m: number;
  /** Width of every altitude ramp (goal bonus, floor, ceiling), m. Default 0.5. */
  altitudeRamp_m: number;
  /** Constant cost of hover. Default 0.3 (small: chosen only when every moving action is blocked). */
  hoverCost: number;
  /** Default 2 m (the expert's). */
  minAltitude_m: number;
  /** Default 40 m (the expert's). */
  maxAltitude_m: number;
  /** Altitude safety weight. Default 4 (dominates the goal and threat terms). */
  wAltitude: number;
  /** Bonus of a free climb when the way ahead is blocked. Default 0.3. */
  wClimbWhenBlocked: number;
  /** Cost of turning toward the threat centroid when the way ahead is blocked. Default 1.5. */
  wCentroid: number;
  /**
   * Decision hysteresis on the vertical escape (sixteenth session): bonus, scaled by blocked_cruise,
   * of the vertical manoeuvre (climb or descend) chosen at the previous decision, added by
   * holdVertical() for whoever keeps that decision (score() stays stateless). Default 0 = off:
   * tried because the strikes the harness leaves were flagged in time but the choice flipped
   * between climb and descend; on validation it helped the harness-OFF flights and hurt the
   * harness-ON ones, so it stays off (docs/coevolution.md, sixteenth session).
   */
  wVerticalHold: number;
  /**
   * Braking on a vertical reversal (seventeenth session; eval only): when the chosen action is
   * climb or descend, the other of the two was chosen within the last REVERSAL_WINDOW decisions,
   * and blocked_cruise is at least this level, brakeReversal() answers hover instead (the drone
   * slows before it turns its escape around). Default 0 = off: on validation (B = 0.3) it helped
   * the BC and harness-OFF flights and hurt the harness-ON ones (docs/coevolution.md, seventeenth session).
   */
  brakeOnReversal: number;
  /**
   * Vertical escape in place (twenty-ninth session; eval only): when the chosen action is climb or
   * descend and blocked_cruise is at least this level, inPlace() says so and the pilot flies it with
   * no forward speed (the action set's climb/descend fly forward at the slow speed, and the strikes
   * the harness leaves are met in those manoeuvres: docs/coevolution.md, twenty-ninth session).
   * Default 0 = off.
   */
  verticalInPlace: number;
  /**
   * With verticalInPlace: fly the escape in place only within 2 s of a frame with at least this many
   * cells at uncorrected wire probability >= 0.9 (PlannerPilot WIRE_EVIDENCE_*; the twenty-eighth
   * session's wire gate 0.9,6,2 evidence; the pilot, not the planner, reads it: PlannerPilot). In a
   * wood the way ahead is blocked by branches most of the time, and escapes in place stall the
   * flight. Default 0 = no wire condition.
   */
  verticalInPlaceWireCells: number;
  /**
   * Commitment to one side of a seen wire (thirtieth session; flown by the eval's pilot, and since the
   * thirty-third by the controller node's vertical_commit_level, off by default; src/control/VerticalCommitment.ts), a blocked_cruise level L:
   * while a frame within 2 s held at least verticalCommitWireCells cells at uncorrected wire
   * probability >= 0.9 (the same evidence as verticalInPlaceWireCells, read by PlannerPilot), the
   * first climb or descend chosen with blocked_cruise >= L fixes a side, and every later climb or
   * descend chosen with blocked_cruise >= L is flown to that side until the evidence lapses (the
   * wire is behind). The side is where the wire sits (wireSide() on the last evidence frame's wire
   * cells: the expert's rule on their median height), or the planner's own choice when that frame's
   * cells gave none. Climbs and descends with the way ahead free (toward the goal's altitude) are
   * left alone. The strikes the shipped pair leaves are met in the vertical escape, at the
   * conductor's height (docs/coevolution.md, twenty-ninth session). Default 0 = off.
   */
  verticalCommit: number;
  /** With verticalCommit: the wire cells of the evidence (>= 1 when verticalCommit > 0). Default 0. */
  verticalCommitWireCells: number;
  /**
   * With verticalCommit: its stall bound, s (VerticalCommitment stall_s, thirty-fourth session): no
   * decision is turned once the drone came less than 1 m closer to the goal over this long. Default 0 = no bound.
   */
  verticalCommitStall_s: number;
  /**
   * The final approach (src/control/arrival.ts, thirty-fourth session): inside this horizontal
   * distance of the goal (m), with its altitude more than 1 m away and the way ahead clear, the
   * vertical manoeuvre toward it is flown with the forward speed that closes the distance in the same
   * time. Read by the pilot, not the planner. Default 0 = off.
   */
  arrivalRadius_m: number;
  /** With arrivalRadius_m: the approach's own climb or descend arc must be clear too (arrival.ts, guarded). Default false (as first flown). */
  arrivalGuarded: boolean;
  /**
   * Scan when stuck (src/control/stuckScan.ts, thirty-sixth session): once the drone has come no more
   * than 1 m closer to the goal than its best for this many seconds, hover decisions are flown as a yaw
   * in place toward the less blocked side. Read by the pilot, not the planner. Default 0 = off.
   */
  scanWhenStuck_s: number;
  /**
   * The climb when stuck (src/control/stuckScan.ts, thirty-seventh session), with scanWhenStuck_s:
   * once stuck, the goal's altitude in the planner's input is raised by this much (m) until the drone
   * is within stuckClimbRelease_m of the goal horizontally. Read by the pilot. Default 0 = off.
   */
  stuckClimb_m: number;
  /** See stuckClimb_m, m. Default 6 (the final approach's radius in config/controller.yaml). */
  stuckClimbRelease_m: number;
  /** Default DEFAULT_ACTION_LIMITS. */
  limits: ActionLimits;
};

export const DEFAULT_PLANNER_OPTIONS: Readonly<PlannerOptions> = Object.freeze({
  hfov_rad: Math.PI / 2,
  cameraPitch_rad: (5 * Math.PI) / 180,
  horizon_s: 2.5,
  clearance_m: 1.5,
  range_m: 8,
  arcSamples: 6,
  arcStartWeight: 0.25,
  softMaxTemperature: 0.05,
  threatGain: 1,
  wThreat: 3,
  manoeuvreThreatFactor: 0.6,
  hoverThreatFactor: 0.25,
  wGoal: 2,
  wHeading: 2,
  headingTolerance_rad: 0.25,
  headingRamp_rad: 0.1,
  wAltitudeGoal: 2.5,
  altitudeTolerance_m: 1,
  altitudeRamp_m: 0.5,
  hoverCost: 0.3,
  minAltitude_m: 2,
  maxAltitude_m: 40,
  wAltitude: 4,
  wClimbWhenBlocked: 0.3,
  wCentroid: 1.5,
  wVerticalHold: 0,
  brakeOnReversal: 0,
  verticalInPlace: 0,
  verticalInPlaceWireCells: 0,
  verticalCommit: 0,
  verticalCommitWireCells: 0,
  verticalCommitStall_s: 0,
  arrivalRadius_m: 0,
  arrivalGuarded: false,
  scanWhenStuck_s: 0,
  stuckClimb_m: 0,
  stuckClimbRelease_m: 6,
  limits: DEFAULT_ACTION_LIMITS,
});

/** The terms of the last score(): logit_a = goalScore_a - threatCost_a + altitudeScore_a + shapeScore_a. */
export type PlannerTrace = {
  /** Per action (ACTIONS order); hover reports the cruise window (it brakes straight ahead). */
  blocked: Float32Array;
  threatCost: Float32Array;
  goalScore: Float32Array;
  altitudeScore: Float32Array;
  shapeScore: Float32Array;
  /** Non-finite threat cells in the last input (treated as 1). */
  nonFinite: number;
};

export function makePlannerTrace(): PlannerTrace {
  return {
    blocked: new Float32Array(NUM_ACTIONS),
    threatCost: new Float32Array(NUM_ACTIONS),
    goalScore: new Float32Array(NUM_ACTIONS),
    altitudeScore: new Float32Array(NUM_ACTIONS),
    shapeScore: new Float32Array(NUM_ACTIONS),
    nonFinite: 0,
  };
}

export type GridShape = { rows: number; cols: number; width: number; height: number };
export type CameraAngles = { hfov_rad: number; cameraPitch_rad: number };

/**
 * Body-frame azimuth (positive left) and elevation (positive up) of every cell centre, rad,
 * row-major into outAz/outEl (length rows*cols). Pinhole camera with fx = fy = width/2/tan(hfov/2),
 * principal point ((W-1)/2, (H-1)/2) (pixel centres at integer coordinates), optical axis pitched
 * down by cameraPitch_rad about body y. The optical ray (x right, y down, z forward) is rotated
 * into FLU with the optical axes in body coordinates x_opt = (0,-1,0), y_opt = (-sin t, 0, -cos t),
 * z_opt = (cos t, 0, -sin t) (as in src/vision/flowModel.ts bodyFluToOptical).
 */
export function cellDirections(shape: GridShape, camera: CameraAngles, outAz: Float64Array, outEl: Float64Array): void {
  checkShape(shape);
  checkCamera(camera);
  const { rows, cols, width, height } = shape;
  const n = rows * cols;
  if (outAz.length !== n || outEl.length !== n) {
    throw new RangeError(`cellDirections: outAz.length=${outAz.length}, outEl.length=${outEl.length}, expected rows*cols=${n}`);
  }
  const f = width / 2 / Math.tan(camera.hfov_rad / 2);
  const cx = (width - 1) / 2;
  const cy = (height - 1) / 2;
  const ct = Math.cos(camera.cameraPitch_rad);
  const st = Math.sin(camera.cameraPitch_rad);
  for (let r = 0; r < rows; r++) {
    const y = (((r + 0.5) * height) / rows - 0.5 - cy) / f;
    for (let c = 0; c < cols; c++) {
      const x = (((c + 0.5) * width) / cols - 0.5 - cx) / f;
      const fwd = ct - y * st;
      const left = -x;
      const up = -st - y * ct;
      outAz[r * cols + c] = Math.atan2(left, fwd);
      outEl[r * cols + c] = Math.atan2(up, Math.hypot(fwd, left));
    }
  }
}

function checkShape(shape: GridShape): void {
  for (const key of ["rows", "cols", "width", "height"] as const) {
    const v = shape[key];
    if (!(Number.isInteger(v) && v > 0)) throw new RangeError(`${key}=${v}, expected a positive integer`);
  }
}

function checkCamera(camera: CameraAngles): void {
  if (!(camera.hfov_rad > 0 && camera.hfov_rad < Math.PI)) throw new RangeError(`hfov_rad=${camera.hfov_rad}, expected in (0, pi)`);
  if (!(Math.abs(camera.cameraPitch_rad) < Math.PI / 2)) {
    throw new RangeError(`cameraPitch_rad=${camera.cameraPitch_rad}, expected in (-pi/2, pi/2)`);
  }
}

function ramp01(x: number): number {
  return x <= 0 ? 0 : x >= 1 ? 1 : x;
}

const CRUISE = ACTIONS.indexOf("cruise");
const SLOW = ACTIONS.indexOf("slow");
const HOVER = ACTIONS.indexOf("hover");
const CLIMB = ACTIONS.indexOf("climb");
const DESCEND = ACTIONS.indexOf("descend");
/** A wire more than this above the drone is passed below (passWireSide; the expert's default wireAboveMargin_m, src/harness/data/ExpertPilot.ts). */
export const WIRE_ABOVE_MARGIN_M = 0.5;
/**
 * The side of a wire up_m above the drone, the expert's rule (src/harness/data/ExpertPilot.ts calls
 * it with its own options): descend (its action index) when the wire is more than aboveMargin_m above
 * and there is room below (altitude - minAltitude_m > clearance_m), else climb.
 */
export function passWireSide(up_m: number, altitude_m: number, o: Pick<PlannerOptions, "minAltitude_m" | "clearance_m">, aboveMargin_m = WIRE_ABOVE_MARGIN_M): number {
  return up_m > aboveMargin_m && altitude_m - o.minAltitude_m > o.clearance_m ? DESCEND : CLIMB;
}

/** Decisions within which a climb after a descend (or the reverse) counts as a reversal (brakeOnReversal): 1 s at 4 Hz. */
export const REVERSAL_WINDOW = 4;

export class LocalPlanner {
  readonly options: Readonly<PlannerOptions>;
  /** Corridor half-width without the half cell, rad. */
  private readonly clearanceRad: number;
  private readonly slowSpeed: number;
  /** Mean heading change of yaw_left over the horizon, rad (yaw_right: the negative). */
  private readonly yawArc: number;
  /** Elevation of climb's direction, rad (descend: the negative). */
  private readonly climbArc: number;
  private rows = 0;
  private cols = 0;
  private width = 0;
  private height = 0;
  /** Window radius R for the current shape, rad. */
  private windowRad = 0;
  private az = new Float64Array(0);
  private el = new Float64Array(0);
  /** Per action, per cell window weight in [0, 1] (slow and hover: empty, they use the cruise window). */
  private windows = new Float32Array(0);
  /** The sanitised threat of the current call. */
  private p = new Float32Array(0);
  /** Copy of p for the attitude resampling. */
  private scratch = new Float32Array(0);
  private readonly blocked = new Float64Array(NUM_ACTIONS);
  private readonly decideOut = new Float32Array(NUM_ACTIONS);
  private readonly centroid = { az: 0, el: 0 };
  /** wireSide's per-cell heights. */
  private heights = new Float64Array(0);

  constructor(options: Partial<PlannerOptions> = {}) {
    const o: PlannerOptions = { ...DEFAULT_PLANNER_OPTIONS, ...options };
    checkOptions(o);
    this.options = Object.freeze(o);
    this.clearanceRad = Math.atan(o.clearance_m / o.range_m);
    this.slowSpeed = o.limits.cruiseSpeed_m_s * o.limits.slowFraction;
    this.yawArc = (o.limits.yawRate_rad_s * o.horizon_s) / 2;
    this.climbArc = Math.atan2(o.limits.verticalSpeed_m_s, this.slowSpeed);
  }

  /** Writes NUM_ACTIONS logits into out (ACTIONS order) and returns it; the trace (if given) gets the terms. */
  score(input: PlannerInput, out: Float32Array, trace?: PlannerTrace): Float32Array {
    if (out.length !== NUM_ACTIONS) throw new RangeError(`out.length=${out.length}, expected NUM_ACTIONS=${NUM_ACTIONS}`);
    checkInput(input);
    this.ensureGeometry(input);
    const nonFinite = this.sanitise(input.threat);
    this.levelRows(input);
    const n = this.p.length;
    for (let a = 0; a < NUM_ACTIONS; a++) {
      // slow flies the cruise window, hover brakes through it: reuse instead of recomputing.
      this.blocked[a] = a === SLOW || a === HOVER ? 0 : this.softMax(a * n);
    }
    const blockedAhead = this.blocked[CRUISE]!;
    this.blocked[SLOW] = blockedAhead;
    this.blocked[HOVER] = blockedAhead;
    const centroid = this.threatCentroid();
    const o = this.options;
    const bearing = Math.atan2(Math.sin(input.goalBearing_rad), Math.cos(input.goalBearing_rad));
    const speedAtCruise = ramp01(input.forwardSpeed_m_s / o.limits.cruiseSpeed_m_s);
    for (let a = 0; a < NUM_ACTIONS; a++) {
      const b = this.blocked[a]!;
      const threat = o.wThreat * this.speedFactor(a, speedAtCruise) * b;
      const goal = this.goalScore(a, input, bearing, b);
      const altitude = this.altitudeScore(a, input.altitude_m);
      const shape = this.shapeScore(a, blockedAhead, centroid.az, centroid.el);
      out[a] = goal - threat + altitude + shape;
      if (trace !== undefined) {
        trace.blocked[a] = b;
        trace.threatCost[a] = threat;
        trace.goalScore[a] = goal;
        trace.altitudeScore[a] = altitude;
        trace.shapeScore[a] = shape;
      }
    }
    if (trace !== undefined) trace.nonFinite = nonFinite;
    return out;
  }

  /**
   * The decision hysteresis (options.wVerticalHold): adds wVerticalHold * blocked_cruise of the
   * last score() to out[previous] when `previous` (the action chosen at the previous decision,
   * -1 for none) is climb or descend; a no-op otherwise. Returns out.
   */
  holdVertical(out: Float32Array, previous: number): Float32Array {
    const w = this.options.wVerticalHold;
    if (w > 0 && (previous === CLIMB || previous === DESCEND)) out[previous] = out[previous]! + w * this.blocked[CRUISE]!;
    return out;
  }

  /**
   * options.brakeOnReversal: hover in place of `action` when it reverses the vertical escape chosen
   * `sinceVertical` decisions ago (lastVertical, -1 for none) within REVERSAL_WINDOW decisions and
   * the way ahead reads blocked at least at that level (blocked_cruise of the last score()).
   */
  brakeReversal(action: number, lastVertical: number, sinceVertical: number): number {
    const level = this.options.brakeOnReversal;
    if (!(level > 0) || sinceVertical >= REVERSAL_WINDOW) return action;
    const reverses = (action === CLIMB && lastVertical === DESCEND) || (action === DESCEND && lastVertical === CLIMB);
    return reverses && this.blocked[CRUISE]! >= level ? HOVER : action;
  }

  /** options.verticalInPlace: whether `action` is a vertical escape to fly with no forward speed (blocked_cruise of the last score() at least the level). */
  inPlace(action: number): boolean {
    const level = this.options.verticalInPlace;
    return level > 0 && (action === CLIMB || action === DESCEND) && this.blocked[CRUISE]! >= level;
  }

  /**
   * The side to pass a wire on (PlannerOptions.verticalCommit): CLIMB or DESCEND by the
   * expert's rule (src/harness/data/ExpertPilot.ts) on the wire cells of `wire` (1 per wire cell,
   * rows*cols of the last score()'s grid): each cell's height above the drone at the planner's
   * range_m, up = range_m tan(el - pitch) (level elevation: nose down by pitch lowers the world
   * elevation of a body direction by pitch), and their median. Descend when the median is more
   * than WIRE_ABOVE_MARGIN_M above and there is room below (altitude - minAltitude_m >
   * clearance_m), else climb; -1 when `wire` has no cell. The range is assumed (one camera gives
   * none): a wire nearer than range_m reads nearer the flight line than it is. The sign, which
   * decides near the flight line, is right at any range and at any azimuth (a level wire at height
   * h and distance d is seen at elevation atan(h cos(az) / d)), so every cell counts, not only the
   * corridor's: the confident cells of a half-seen wire are few. `climbed_m`: how far the drone has
   * climbed since the frame of `wire` was taken (negative: descended); the heights are then taken
   * from where it is now (the median less climbed_m), and `altitude_m` is its altitude now.
   */
  wireSide(wire: ArrayLike<number>, altitude_m: number, bodyPitch_rad = 0, climbed_m = 0): number {
    const n = this.rows * this.cols;
    if (n === 0) throw new Error("wireSide: no grid yet (call score() first)");
    if (wire.length !== n) throw new RangeError(`wireSide: wire.length=${wire.length}, expected rows*cols=${n} of the last score()`);
    if (!Number.isFinite(altitude_m)) throw new RangeError(`altitude_m=${altitude_m}, expected a finite number`);
    if (!(Number.isFinite(bodyPitch_rad) && Math.abs(bodyPitch_rad) < Math.PI / 2)) throw new RangeError(`bodyPitch_rad=${bodyPitch_rad}, expected a finite number in (-pi/2, pi/2)`);
    if (!Number.isFinite(climbed_m)) throw new RangeError(`climbed_m=${climbed_m}, expected a finite number`);
    if (this.heights.length !== n) this.heights = new Float64Array(n);
    let k = 0;
    for (let i = 0; i < n; i++) {
      if (wire[i] !== 1) continue;
      this.heights[k++] = this.options.range_m * Math.tan(this.el[i]! - bodyPitch_rad);
    }
    if (k === 0) return -1;
    const up = this.heights.subarray(0, k).sort();
    const median = k % 2 === 1 ? up[(k - 1) / 2]! : (up[k / 2 - 1]! + up[k / 2]!) / 2;
    return passWireSide(median - climbed_m, altitude_m, this.options);
  }

  /** The blocked value of `action`'s arc in the last score() (0 before the first); blockedAhead is cruise's. */
  blockedOf(action: number): number {
    const b = this.blocked[action];
    if (b === undefined) throw new RangeError(`action=${action}, expected an integer in [0, ${NUM_ACTIONS - 1}]`);
    return b;
  }

  /** blocked_cruise of the last score() (0 before the first). */
  get blockedAhead(): number {
    return this.blocked[CRUISE]!;
  }

  /** argmax of score() (the lowest index on a tie). */
  decide(input: PlannerInput): number {
    return argmaxAction(this.score(input, this.decideOut));
  }

  /** Recomputes the cell directions and windows when the grid shape changes (hfov/pitch are fixed per instance). */
  private ensureGeometry(shape: GridShape): void {
    if (shape.rows === this.rows && shape.cols === this.cols && shape.width === this.width && shape.height === this.height) return;
    const { rows, cols, width, height } = shape;
    const n = rows * cols;
    this.az = new Float64Array(n);
    this.el = new Float64Array(n);
    cellDirections(shape, this.options, this.az, this.el);
    const f = width / 2 / Math.tan(this.options.hfov_rad / 2);
    const vfov = 2 * Math.atan(height / 2 / f);
    this.windowRad = this.clearanceRad + 0.5 * Math.max(this.options.hfov_rad / cols, vfov / rows);
    let azMin = Infinity, azMax = -Infinity, elMin = Infinity, elMax = -Infinity;
    for (let i = 0; i < n; i++) {
      const az = this.az[i]!;
      const el = this.el[i]!;
      azMin = Math.min(azMin, az); azMax = Math.max(azMax, az);
      elMin = Math.min(elMin, el); elMax = Math.max(elMax, el);
    }
    this.windows = new Float32Array(NUM_ACTIONS * n);
    for (let a = 0; a < NUM_ACTIONS; a++) {
      const name = ACTIONS[a] ?? "hover";
      switch (name) {
        case "cruise":
          this.fillArc(a * n, 0, 0);
          break;
        case "slow":
        case "hover":
          break;
        case "climb":
          this.fillArc(a * n, 0, Math.min(this.climbArc, elMax));
          break;
        case "descend":
          this.fillArc(a * n, 0, Math.max(-this.climbArc, elMin));
          break;
        case "yaw_left":
          this.fillArc(a * n, Math.min(this.yawArc, azMax), 0);
          break;
        case "yaw_right":
          this.fillArc(a * n, Math.max(-this.yawArc, azMin), 0);
          break;
      }
    }
    this.p = new Float32Array(n);
    this.rows = rows;
    this.cols = cols;
    this.width = width;
    this.height = height;
  }

  /**
   * Window weights at windows[offset..offset+n): the max over `arcSamples` directions evenly
   * spaced from (0, 0) to (azEnd, elEnd), of sample weight (arcStartWeight rising linearly to 1)
   * times kernel(angle to the cell). A straight window (azEnd = elEnd = 0) is the single direction
   * (0, 0) with weight 1.
   */
  private fillArc(offset: number, azEnd: number, elEnd: number): void {
    const straight = azEnd === 0 && elEnd === 0;
    const samples = straight ? 1 : this.options.arcSamples;
    const startWeight = this.options.arcStartWeight;
    const R = this.windowRad;
    for (let k = 0; k < samples; k++) {
      const t = samples === 1 ? 1 : k / (samples - 1);
      const w = straight ? 1 : startWeight + (1 - startWeight) * t;
      const sAz = t * azEnd;
      const sEl = t * elEnd;
      const sx = Math.cos(sEl) * Math.cos(sAz), sy = Math.cos(sEl) * Math.sin(sAz), sz = Math.sin(sEl);
      for (let i = 0; i < this.az.length; i++) {
        const az = this.az[i]!;
        const el = this.el[i]!;
        const dot = Math.cos(el) * Math.cos(az) * sx + Math.cos(el) * Math.sin(az) * sy + Math.sin(el) * sz;
        const d = Math.acos(Math.min(1, Math.max(-1, dot)));
        const weight = d >= R ? 0 : w * (1 - (d / R) * (d / R));
        if (weight > this.windows[offset + i]!) this.windows[offset + i] = weight;
      }
    }
  }

  /** Copies threatGain * threat into p: non-finite -> 1 (unknown = blocked), others clamped to [0, 1]. Returns the non-finite count. */
  private sanitise(threat: Float32Array): number {
    let nonFinite = 0;
    const gain = this.options.threatGain;
    for (let i = 0; i < threat.length; i++) {
      const v = (threat[i] ?? NaN) * gain;
      if (!Number.isFinite(v)) {
        nonFinite++;
        this.p[i] = 1;
      } else {
        this.p[i] = v <= 0 ? 0 : v >= 1 ? 1 : v;
      }
    }
    return nonFinite;
  }

  /** Resamples this.p along rows to the level attitude (see PlannerInput.bodyPitch_rad). */
  private levelRows(input: PlannerInput): void {
    const pitch = input.bodyPitch_rad ?? 0;
    if (pitch === 0) return;
    const { rows, cols, width, height } = input;
    const f = width / 2 / Math.tan(this.options.hfov_rad / 2);
    // Nose down by pitch: a level direction appears pitch above where it would, i.e. shift rows up.
    const shift = (-Math.tan(pitch) * f) / (height / rows);
    const src = this.scratch.length === this.p.length ? this.scratch : (this.scratch = new Float32Array(this.p.length));
    src.set(this.p);
    for (let r = 0; r < rows; r++) {
      const y = r + shift;
      const r0 = Math.floor(y);
      const t = y - r0;
      for (let c = 0; c < cols; c++) {
        const a = r0 >= 0 && r0 < rows ? src[r0 * cols + c]! : 0;
        const b = r0 + 1 >= 0 && r0 + 1 < rows ? src[(r0 + 1) * cols + c]! : 0;
        this.p[r * cols + c] = a + (b - a) * t;
      }
    }
  }

  /** Boltzmann soft maximum of x = window * p over the window at windows[offset..offset+n) (0 if the window is empty). */
  private softMax(offset: number): number {
    const n = this.p.length;
    let m = -Infinity;
    for (let i = 0; i < n; i++) {
      const w = this.windows[offset + i]!;
      if (w > 0) m = Math.max(m, w * this.p[i]!);
    }
    if (m === -Infinity) return 0;
    const invT = 1 / this.options.softMaxTemperature;
    let num = 0;
    let den = 0;
    for (let i = 0; i < n; i++) {
      const w = this.windows[offset + i]!;
      if (w > 0) {
        const x = w * this.p[i]!;
        const e = Math.exp((x - m) * invT);
        num += x * e;
        den += e;
      }
    }
    return num / den;
  }

  /**
   * Threat-weighted mean azimuth and elevation over the cruise window, each over R and clamped
   * to [-1, 1] (0 when the window holds no threat). Returns the one reused object (no allocation).
   */
  private threatCentroid(): { az: number; el: number } {
    const n = this.p.length;
    const offset = CRUISE * n;
    let mass = 0, az = 0, el = 0;
    for (let i = 0; i < n; i++) {
      const m = this.windows[offset + i]! * this.p[i]!;
      mass += m;
      az += m * this.az[i]!;
      el += m * this.el[i]!;
    }
    const c = this.centroid;
    if (mass <= 1e-6) {
      c.az = 0;
      c.el = 0;
    } else {
      c.az = Math.max(-1, Math.min(1, az / mass / this.windowRad));
      c.el = Math.max(-1, Math.min(1, el / mass / this.windowRad));
    }
    return c;
  }

  private speedFactor(a: number, speedAtCruise: number): number {
    if (a === CRUISE) return 1;
    if (a === HOVER) return this.options.hoverThreatFactor * speedAtCruise;
    return this.options.manoeuvreThreatFactor;
  }

  /**
   * (1 - blocked) * (wGoal * progress + bonus), from a's forward speed and mean heading change over
   * the horizon; bonus: the yaw toward the goal bearing, the climb/descend toward the goal altitude.
   */
  private goalScore(a: number, input: PlannerInput, bearing: number, blocked: number): number {
    const o = this.options;
    const name = ACTIONS[a] ?? "hover";
    let speed = this.slowSpeed;
    let heading = 0;
    let bonus = 0;
    switch (name) {
      case "cruise":
        speed = o.limits.cruiseSpeed_m_s;
        break;
      case "slow":
        break;
      case "hover":
        return -o.hoverCost;
      case "climb":
        bonus = o.wAltitudeGoal * ramp01((input.goalDz_m - o.altitudeTolerance_m) / o.altitudeRamp_m);
        break;
      case "descend":
        bonus = o.wAltitudeGoal * ramp01((-input.goalDz_m - o.altitudeTolerance_m) / o.altitudeRamp_m);
        break;
      case "yaw_left":
        heading = this.yawArc;
        bonus = o.wHeading * ramp01((bearing - o.headingTolerance_rad) / o.headingRamp_rad);
        break;
      case "yaw_right":
        heading = -this.yawArc;
        bonus = o.wHeading * ramp01((-bearing - o.headingTolerance_rad) / o.headingRamp_rad);
        break;
    }
    // Distance to the goal closed by flying s metres at the mean heading, over the cruise distance.
    const s = speed * o.horizon_s;
    const d = input.goalDistance_m;
    const dx = d * Math.cos(bearing) - s * Math.cos(heading);
    const dy = d * Math.sin(bearing) - s * Math.sin(heading);
    const progress = (d - Math.hypot(dx, dy)) / (o.limits.cruiseSpeed_m_s * o.horizon_s);
    return (1 - blocked) * (o.wGoal * progress + bonus);
  }

  private altitudeScore(a: number, altitude: number): number {
    const o = this.options;
    const drop = o.limits.verticalSpeed_m_s * o.horizon_s;
    if (a === CLIMB) {
      const floor = ramp01((o.minAltitude_m - altitude) / o.altitudeRamp_m);
      const ceiling = ramp01((altitude + drop - o.maxAltitude_m) / o.altitudeRamp_m);
      return o.wAltitude * (floor - ceiling);
    }
    if (a === DESCEND) return -o.wAltitude * ramp01((o.minAltitude_m - (altitude - drop)) / o.altitudeRamp_m);
    return 0;
  }

  private shapeScore(a: number, blockedAhead: number, centroidAz: number, centroidEl: number): number {
    const o = this.options;
    const name = ACTIONS[a] ?? "hover";
    switch (name) {
      case "cruise":
      case "slow":
      case "hover":
        return 0;
      case "climb":
        return blockedAhead * (o.wClimbWhenBlocked * (1 - this.blocked[CLIMB]!) - o.wCentroid * Math.max(0, centroidEl));
      case "descend":
        return -blockedAhead * o.wCentroid * Math.max(0, -centroidEl);
      case "yaw_left":
        return -blockedAhead * o.wCentroid * Math.max(0, centroidAz);
      case "yaw_right":
        return -blockedAhead * o.wCentroid * Math.max(0, -centroidAz);
    }
  }
}

function checkInput(input: PlannerInput): void {
  checkShape(input);
  const n = input.rows * input.cols;
  if (input.threat.length !== n) {
    throw new RangeError(`threat.length=${input.threat.length}, expected rows*cols=${input.rows}*${input.cols}=${n}`);
  }
  for (const key of ["altitude_m", "forwardSpeed_m_s", "goalBearing_rad", "goalDz_m"] as const) {
    const v = input[key];
    if (!Number.isFinite(v)) throw new RangeError(`${key}=${v}, expected a finite number`);
  }
  const pitch = input.bodyPitch_rad ?? 0;
  if (!(Number.isFinite(pitch) && Math.abs(pitch) < Math.PI / 2)) throw new RangeError(`bodyPitch_rad=${pitch}, expected a finite number in (-pi/2, pi/2)`);
  const d = input.goalDistance_m;
  if (!(Number.isFinite(d) && d >= 0)) throw new RangeError(`goalDistance_m=${d}, expected a finite number >= 0`);
}

function checkOptions(o: PlannerOptions): void {
  const positive = [
    "horizon_s", "clearance_m", "range_m", "softMaxTemperature", "headingRamp_rad", "altitudeRamp_m", "threatGain",
  ] as const;
  for (const key of positive) {
    const v = o[key];
    if (!(Number.isFinite(v) && v > 0)) throw new RangeError(`${key}=${v}, expected a finite number > 0`);
  }
  const nonNegative = [
    "wThreat", "manoeuvreThreatFactor", "hoverThreatFactor", "wGoal", "wHeading", "headingTolerance_rad",
    "wAltitudeGoal", "altitudeTolerance_m", "hoverCost", "wAltitude", "wClimbWhenBlocked", "wCentroid", "wVerticalHold", "brakeOnReversal", "verticalInPlace", "verticalInPlaceWireCells",
    "verticalCommit", "verticalCommitWireCells", "verticalCommitStall_s", "arrivalRadius_m",
  ] as const;
  for (const key of nonNegative) {
    const v = o[key];
    if (!(Number.isFinite(v) && v >= 0)) throw new RangeError(`${key}=${v}, expected a finite number >= 0`);
  }
  checkCamera(o);
  for (const key of ["verticalInPlaceWireCells", "verticalCommitWireCells"] as const) {
    if (!Number.isInteger(o[key])) throw new RangeError(`${key}=${o[key]}, expected an integer count of cells >= 0`);
  }
  if (o.verticalCommit > 1) throw new RangeError(`verticalCommit=${o.verticalCommit}, expected a blocked_cruise level in [0, 1]`);
  if (o.verticalCommit > 0 && o.verticalCommitWireCells < 1) {
    throw new RangeError(`verticalCommitWireCells=${o.verticalCommitWireCells}, expected >= 1 with verticalCommit=${o.verticalCommit} (the commitment holds only while wire is seen)`);
  }
  if (typeof o.arrivalGuarded !== "boolean") throw new RangeError(`arrivalGuarded=${String(o.arrivalGuarded)}, expected true or false`);
  if (!(Number.isInteger(o.arcSamples) && o.arcSamples >= 2)) throw new RangeError(`arcSamples=${o.arcSamples}, expected an integer >= 2`);
  if (!(o.arcStartWeight >= 0 && o.arcStartWeight <= 1)) throw new RangeError(`arcStartWeight=${o.arcStartWeight}, expected in [0, 1]`);
  if (!(Number.isFinite(o.minAltitude_m) && Number.isFinite(o.maxAltitude_m) && o.minAltitude_m < o.maxAltitude_m)) {
    throw new RangeError(`minAltitude_m=${o.minAltitude_m}, maxAltitude_m=${o.maxAltitude_m}, expected finite with min < max`);
  }
  const l = o.limits;
  for (const key of ["cruiseSpeed_m_s", "slowFraction", "verticalSpeed_m_s", "yawRate_rad_s"] as const) {
    const v = l[key];
    if (!(Number.isFinite(v) && v > 0)) throw new RangeError(`limits.${key}=${v}, expected a finite number > 0`);
  }
}
