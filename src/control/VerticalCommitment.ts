/**
 * The vertical commitment (PlannerOptions.verticalCommit, thirtieth to thirty-third sessions): while
 * the detector's own (uncorrected) wire cells were seen within a window, a climb or descend the
 * planner chooses with the way ahead blocked (blocked_cruise >= the level) is flown to the side of
 * the wire the wire cells give (LocalPlanner.wireSide: the expert's rule on their median height).
 * One class for the eval's pilot (src/harness/eval/PlannerPilot.ts) and the controller node
 * (nodes/common/models/PlannerDecision.ts): the wire cells come in as a mask, counted by the caller
 * from the detector's logits (the pilot) or from its published class probabilities (the node).
 *
 * Two ways to use the side (CommitSide): held (no bound) -- the first such decision fixes the side,
 * later ones are turned to it until the evidence lapses; "each" -- nothing is held, every such
 * decision takes the wire cells' side of the last frame that opened the evidence, its heights taken
 * from where the drone is now. "truth" and "truth-each" are bounds of the eval with the side from
 * the world's wires (a callback; a node has no such truth).
 *
 * The stall bound (stall_s, thirty-fourth session): the commitment turns no decision once the drone
 * has come less than STALL_PROGRESS_M closer to the goal (the navigation's horizontal distance) over
 * the last stall_s seconds of open evidence; it turns again after that much progress. A commitment
 * cannot then hold the drone at a wire for longer than stall_s without forward progress.
 */
import { ACTIONS } from "./actions";
import type { LocalPlanner } from "./LocalPlanner";
import type { Navigation } from "./navigation";

const ACTION_CLIMB = ACTIONS.indexOf("climb");
const ACTION_DESCEND = ACTIONS.indexOf("descend");

/** The wire evidence: the wire probability a cell must reach, and how long a frame with enough such cells counts (s). */
export const WIRE_EVIDENCE_LEVEL = 0.9;
export const WIRE_EVIDENCE_WINDOW_S = 2;

/** Progress toward the goal (m) that restarts the stall clock of VerticalCommitmentOptions.stall_s. */
export const STALL_PROGRESS_M = 1;

/** Where the side comes from other than a held side of the wire cells (see the file's comment). */
export const COMMIT_SIDES = ["each", "truth", "truth-each"] as const;
export type CommitSide = (typeof COMMIT_SIDES)[number];
export const isCommitSide = (s: string): s is CommitSide => (COMMIT_SIDES as readonly string[]).includes(s);

/** Sides fixed, of them by the wire cells' height and by the world's wires ("truth"; the others: the planner's own choice), decisions turned to another side, and decisions left as chosen because the drone had stalled (stall_s). */
export type VerticalCommitCounts = { commitments: number; byWireCells: number; byTruth: number; overridden: number; released: number };

/** What the commitment did at one decision: a side fixed there (by the wire cells, the world's wires or the planner's own choice), whether the decision was turned, whether it would have been turned but the drone had stalled (stall_s), and whether the evidence was open. */
export type CommitEvent = { fixed?: "wire" | "truth" | "choice"; turned: boolean; released: boolean; evidence: boolean };

export type VerticalCommitmentOptions = {
  /** blocked_cruise level in (0, 1] at and above which climbs and descends are committed. */
  level: number;
  /** Wire cells (>= 1) a frame must hold to open the evidence. */
  cells: number;
  /** Default WIRE_EVIDENCE_WINDOW_S. */
  window_s?: number;
  /** Default undefined: the side is held. */
  side?: CommitSide;
  /** The stall bound, s (> 0; see the file's comment). Default undefined: no bound. */
  stall_s?: number;
};

export function checkVerticalCommitment(o: Readonly<VerticalCommitmentOptions>): void {
  if (!(o.level > 0 && o.level <= 1)) throw new RangeError(`vertical commitment level=${o.level}, expected a blocked_cruise level in (0, 1]`);
  if (!(Number.isInteger(o.cells) && o.cells >= 1)) throw new RangeError(`vertical commitment cells=${o.cells}, expected an integer >= 1 (the commitment holds only while wire is seen)`);
  const w = o.window_s ?? WIRE_EVIDENCE_WINDOW_S;
  if (!(Number.isFinite(w) && w >= 0)) throw new RangeError(`vertical commitment window_s=${w}, expected a finite number of seconds >= 0`);
  if (o.stall_s !== undefined && !(Number.isFinite(o.stall_s) && o.stall_s > 0)) throw new RangeError(`vertical commitment stall_s=${o.stall_s}, expected a finite number of seconds > 0 (leave it out for no bound)`);
  if (o.side !== undefined && !isCommitSide(o.side)) throw new RangeError(`vertical commitment side="${String(o.side)}", expected one of ${COMMIT_SIDES.join(", ")}`);
}

/**
 * Counts into `mask` (1 per cell) the cells whose wire probability reaches `level`, from class
 * probabilities laid out `classes` per cell (the StudentOutput message's cell_probs); returns the count.
 */
export function countWireProbabilityCells(probs: ArrayLike<number>, classes: number, wireClass: number, level: number, mask: Uint8Array): number {
  if (!(Number.isInteger(classes) && classes > wireClass && wireClass >= 0)) throw new RangeError(`classes=${classes}, wireClass=${wireClass}: expected 0 <= wireClass < classes`);
  if (probs.length !== mask.length * classes) throw new RangeError(`probs.length=${probs.length}, expected ${mask.length} cells x ${classes} classes = ${mask.length * classes}`);
  let n = 0;
  for (let c = 0; c < mask.length; c++) {
    const on = probs[c * classes + wireClass]! >= level;
    mask[c] = on ? 1 : 0;
    if (on) n++;
  }
  return n;
}

/**
 * Evidence that counts for `window_s` seconds after a frame with at least `cells` cells; a clock that
 * went back (a replayed bag restarted without reset()) forgets it. The wire gate's window
 * (WireEvidenceWindow, src/harness/runtime/SpatialHarnessRuntime.ts) and the commitment read it.
 */
export class EvidenceWindow {
  private last_s = Number.NEGATIVE_INFINITY;

  constructor(
    readonly cells: number,
    readonly window_s: number,
  ) {}

  /** One frame's count at time `time_s`; true while the evidence is open. */
  observe(count: number, time_s: number): boolean {
    if (time_s < this.last_s) this.last_s = Number.NEGATIVE_INFINITY;
    if (count >= this.cells) this.last_s = time_s;
    return time_s - this.last_s <= this.window_s;
  }

  reset(): void {
    this.last_s = Number.NEGATIVE_INFINITY;
  }
}

export class VerticalCommitment {
  private readonly window: EvidenceWindow;
  /** The last frame that opened the evidence: its wire cells and attitude. */
  private readonly evidence = { mask: new Uint8Array(0), altitude_m: 0, pitch_rad: 0, seen: false };
  private committed = -1;
  /** The stall clock: the goal distance (m) where the drone last made STALL_PROGRESS_M of progress (NaN while the evidence is closed), when (s), and the last decision's time. */
  private readonly progress = { ref_m: Number.NaN, since_s: 0, now_s: 0 };
  readonly counts: VerticalCommitCounts = { commitments: 0, byWireCells: 0, byTruth: 0, overridden: 0, released: 0 };
  /** What the last decision did. */
  readonly event: CommitEvent = { turned: false, released: false, evidence: false };

  constructor(readonly options: Readonly<VerticalCommitmentOptions>) {
    checkVerticalCommitment(options);
    this.window = new EvidenceWindow(options.cells, options.window_s ?? WIRE_EVIDENCE_WINDOW_S);
  }

  /** The side held (climb's or descend's action index), -1 for none. */
  get side(): number {
    return this.committed;
  }

  /** Forgets the evidence and the side (a new flight); the counts are kept. */
  reset(): void {
    this.window.reset();
    this.committed = -1;
    this.evidence.seen = false;
    this.progress.ref_m = Number.NaN;
  }

  /** Seconds since the drone last came STALL_PROGRESS_M closer to the goal while the evidence was open (0 while it is closed). */
  get stalled_s(): number {
    const p = this.progress;
    return Number.isNaN(p.ref_m) ? 0 : p.now_s - p.since_s;
  }

  /**
   * One decision: `action` as the planner chose it after its last score() (`planner` holds that
   * score's blocked_cruise and grid), this frame's wire cells (`mask`, `count` of them) at time
   * `time_s`, the navigation of the decision. Returns the action to fly. `truthSide`: the side from
   * the world's wires for the "truth" bounds (undefined where none is ahead). A clock that went back
   * (a replayed bag restarted) forgets the evidence.
   */
  decide(action: number, mask: Uint8Array, count: number, time_s: number, planner: LocalPlanner, nav: Readonly<Navigation>, truthSide?: () => number | undefined): number {
    const event = this.event;
    delete event.fixed;
    event.turned = false;
    event.released = false;
    event.evidence = false;
    const ev = this.evidence;
    const progress = this.progress;
    progress.now_s = time_s;
    if (!this.window.observe(count, time_s)) {
      this.committed = -1;
      ev.seen = false;
      progress.ref_m = Number.NaN;
      return action;
    }
    event.evidence = true;
    // The stall clock restarts where the evidence opens, at STALL_PROGRESS_M of progress, and on a clock that went back.
    const goal_m = nav.goalDistance_m;
    if (Number.isNaN(progress.ref_m) || goal_m <= progress.ref_m - STALL_PROGRESS_M || time_s < progress.since_s) {
      progress.ref_m = goal_m;
      progress.since_s = time_s;
    }
    if (count >= this.options.cells) {
      if (ev.mask.length !== mask.length) ev.mask = new Uint8Array(mask.length);
      ev.mask.set(mask);
      ev.altitude_m = nav.altitude_m;
      ev.pitch_rad = nav.pitch_rad;
      ev.seen = true;
    }
    if ((action !== ACTION_CLIMB && action !== ACTION_DESCEND) || planner.blockedAhead < this.options.level) return action;
    const bound = this.options.side;
    // "each" and "truth-each" hold nothing: every such decision reads its side afresh.
    const hold = bound === undefined || bound === "truth";
    if (hold && this.committed !== -1) return this.turn(action, this.committed);
    const truth = bound === "truth" || bound === "truth-each" ? truthSide?.() : undefined;
    // A held side is read at the evidence frame's altitude; one read at each decision from where the drone is now.
    const now = nav.altitude_m;
    const fromCells = truth === undefined && bound !== "truth-each" && ev.seen ? planner.wireSide(ev.mask, hold ? ev.altitude_m : now, ev.pitch_rad, hold ? 0 : now - ev.altitude_m) : -1;
    const side = truth ?? fromCells;
    this.counts.commitments++;
    event.fixed = truth !== undefined ? "truth" : fromCells !== -1 ? "wire" : "choice";
    if (truth !== undefined) this.counts.byTruth++;
    else if (fromCells !== -1) this.counts.byWireCells++;
    if (!hold) return side === -1 ? action : this.turn(action, side);
    this.committed = side === -1 ? action : side;
    return this.turn(action, this.committed);
  }

  /**
   * `side`, counting and marking the decision as turned when it is not `action`; `action` itself,
   * counted as released, when the drone has stalled longer than the stall bound.
   */
  private turn(action: number, side: number): number {
    if (action !== side) {
      const stall = this.options.stall_s;
      if (stall !== undefined && this.stalled_s > stall) {
        this.counts.released++;
        this.event.released = true;
        return action;
      }
      this.counts.overridden++;
      this.event.turned = true;
    }
    return side;
  }
}
