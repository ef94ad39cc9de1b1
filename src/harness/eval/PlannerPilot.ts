/**
 * The planner rows of `eval` (issue 12 item 6): the local planner (src/control/LocalPlanner.ts)
 * flying on a per-cell near-threat grid from one of three sources, same seeds for each:
 *  - "oracle": the simulator's near-threat cells (visible obstacle pixels within the threat
 *    horizon, CellLabels.nearThreatCells) -- what the planner can do with perfect perception;
 *  - a detector's near-threat sigmoid (teacher or student size; models/pipeline/).
 * Goal bearing, distance and altitude difference come from DroneEnvironment.navigation().
 */
import { LocalPlanner, argmaxAction, passWireSide, plannerInput, type PlannerOptions } from "../../control/LocalPlanner";
import { ACTIONS, DETECTION_CLASSES, NUM_ACTIONS, NUM_DETECTION_CLASSES } from "../actions";
import { makeNavigation, type DroneEnvironment } from "../data/DroneEnvironment";
import { movedNavigation, type Navigation } from "../../control/navigation";
import { THREAT_CHANNEL, type Teacher } from "../models/Teacher";
import { DETECTOR_CELL_PX, DetectorRuntime } from "../runtime/DetectorRuntime";
import { countWireCells, SpatialHarnessRuntime, WireEvidenceWindow, type SpatialHarnessOptions, type SpatialStepInfo } from "../runtime/SpatialHarnessRuntime";
import { plannerArrival, type ArrivalDecision } from "../../control/arrival";
import { StuckScan } from "../../control/stuckScan";
import { VerticalCommitment, WIRE_EVIDENCE_LEVEL, WIRE_EVIDENCE_WINDOW_S, type CommitEvent, type CommitSide, type VerticalCommitCounts } from "../../control/VerticalCommitment";
import type { SpatialHarness, SpatialHarnessWeights } from "../spatial/SpatialHarness";
import { actionFormulaDelta } from "../spatial/actionFormula";
import { markRegions, NUM_SENSITIVITY_DIMS, REGION_CELLS, regionOfCell } from "../spatial/SpatialHarness";
import { DETECTOR_OUTPUTS_PER_CELL } from "../spatial/spatialFeatures";
import { warpImage } from "../spatial/warp";
import { DELTA_NORM_MAX } from "../correction/constants";
import { SGT_EPSILON } from "../diagnostics/constants";
import { nearClassCells, nearThreatCells, wireGapCells } from "./CellLabels";
import { lineSupport } from "./lineSupport";
import type { FrameTruth, Pilot } from "./flyClosedLoop";
import { wireAhead } from "./wireCrossings";

const ACTION_CLIMB = ACTIONS.indexOf("climb");
const ACTION_DESCEND = ACTIONS.indexOf("descend");

const WIRE_CLASS = DETECTION_CLASSES.indexOf("wire");

// The commitment's evidence, kinds and counts moved to src/control/VerticalCommitment.ts (the controller node flies it too).
export { COMMIT_SIDES, isCommitSide, WIRE_EVIDENCE_LEVEL, WIRE_EVIDENCE_WINDOW_S, type CommitEvent, type CommitSide, type VerticalCommitCounts } from "../../control/VerticalCommitment";

/** How far ahead trueWireSide looks for a conductor, m: past the detector's near band (12 m). */
export const TRUE_WIRE_RANGE_M = 15;

/**
 * The side of the nearest conductor ahead by the expert's rule on its true height (passWireSide),
 * from the environment's ground truth (truePosition_m, wireGeometry) and the heading of `nav`:
 * undefined when the environment has no such truth or no conductor crosses the heading line within
 * TRUE_WIRE_RANGE_M.
 */
export function trueWireSide(env: DroneEnvironment, nav: Readonly<Navigation>, options: Pick<PlannerOptions, "minAltitude_m" | "clearance_m">, position = new Float64Array(3)): number | undefined {
  if (env.truePosition_m === undefined || env.wireGeometry === undefined) return undefined;
  env.truePosition_m(position);
  const w = wireAhead(position[0]!, position[1]!, position[2]!, nav.yaw_rad, env.wireGeometry(), TRUE_WIRE_RANGE_M);
  return w === undefined ? undefined : passWireSide(w.up_m, position[2]!, options);
}

/**
 * The planner's decision options a pilot cannot fly are refused rather than ignored: the literal
 * action-formula target decides from the corrected action logits alone (no hold, braking, escape in
 * place or commitment), and the wire evidence of verticalInPlaceWireCells and verticalCommit is the
 * detector's (an oracle pilot has none).
 */
function checkDecisionOptions(source: ThreatSource, o: Readonly<PlannerOptions>): void {
  const set = (["wVerticalHold", "brakeOnReversal", "verticalInPlace", "verticalCommit", "arrivalRadius_m", "scanWhenStuck_s", "stuckClimb_m"] as const).filter((k) => o[k] > 0);
  if (source.type === "detector" && source.harness?.target === "actions" && set.length > 0) {
    throw new RangeError(`the action-formula target decides from the corrected action logits alone; it cannot fly ${set.join(", ")}`);
  }
  const wire = (["verticalInPlaceWireCells", "verticalCommit"] as const).filter((k) => o[k] > 0);
  if (source.type === "oracle" && wire.length > 0) throw new RangeError(`${wire.join(", ")} read the detector's wire evidence; the oracle pilot has no detector`);
  if (o.stuckClimb_m > 0 && !(o.scanWhenStuck_s > 0)) throw new RangeError(`stuckClimb_m=${o.stuckClimb_m} climbs once the drone is stuck, as the scan when stuck reads it: set scanWhenStuck_s too`);
}

/** Where the threat grid comes from. */
export type ThreatSource =
  | { type: "oracle" }
  | {
      type: "detector";
      detector: Teacher;
      /**
       * The spatial harness correcting the detector's logits (issue 13). With `apply: false` it
       * still runs (its risk, S and delta are computed and readable) but the planner reads the
       * uncorrected grid: the harness-OFF arm of a paired comparison with identical inputs.
       */
      harness?: { model: SpatialHarness | SpatialHarnessWeights; options?: Partial<SpatialHarnessOptions>; apply: boolean; target?: HarnessTarget; riskHold?: number };
      /** Mends one kind of the grid's errors with the frame's ground truth (an upper bound, not a harness). */
      truthMix?: TruthMix;
      /** Fills gaps along straight structures of the grid (no truth; see LineFill). */
      lineFill?: LineFill;
      /** The vertical commitment's side from the world's wires (CommitSide): a bound, not a harness. */
      commitSide?: CommitSide;
    };

/**
 * Gap filling along lines (thirteenth session; not a harness, no training): the planner reads
 * t'(c) = max(t(c), min(1, gain * LS(c))), LS the best mean of the threat grid along a straight
 * segment through c (lineSupport.ts, half-length `fraction` of the grid's longer side). A wire
 * flagged on a quarter of its cells gets its gaps raised toward the segment's mean; a short blob
 * is diluted by the segment's empty cells. With `floor`, only cells whose LS reaches it are raised
 * (a gate: the background and short blobs, whose segment means stay under it, are left as they are).
 * With `wireOnly`, LS is taken on the detector's wire-class probabilities instead of the threat
 * grid (the threat grid is what is raised): crowns and other blobs of threat are not completed.
 */
export type LineFill = { fraction: number; gain: number; floor?: number; wireOnly?: boolean };

/** t' = max(t, min(1, gain * LS(p))) into `out`, where LS(p) >= floor (LineFill); p is the threat itself unless given. */
export function lineFilled(threat: ArrayLike<number>, rows: number, cols: number, fill: LineFill, out = new Float32Array(rows * cols), support: ArrayLike<number> = threat): Float32Array {
  if (!(fill.fraction > 0 && fill.fraction <= 1) || !(fill.gain > 0 && Number.isFinite(fill.gain))) throw new RangeError(`line fill fraction=${fill.fraction}, gain=${fill.gain}: expected a fraction in (0, 1] and a finite gain > 0`);
  if (support.length !== threat.length) throw new RangeError(`line fill support length ${support.length}, expected the threat grid's ${threat.length}`);
  const ls = lineSupport(support, rows, cols, Math.max(1, Math.round(fill.fraction * Math.max(rows, cols))));
  const floor = fill.floor ?? 0;
  if (!(floor >= 0 && floor <= 1)) throw new RangeError(`line fill floor=${floor}: expected a number in [0, 1]`);
  for (let i = 0; i < ls.length; i++) out[i] = ls[i]! >= floor ? Math.max(threat[i]!, Math.min(1, fill.gain * ls[i]!)) : threat[i]!;
  return out;
}

/**
 * Error decomposition of the planner's grid (thirteenth session): which of the detector's errors
 * the collisions come from, each mended with the simulator's near-threat cells (nearThreatCells)
 * after the detector (and the harness, if applied):
 * - "fill": every near-threat cell raised to 1 (no gap along any near structure; false alarms kept);
 * - "fill-wire": the same for the cells of near wires only;
 * - "clean": every cell without a near-threat structure set to 0 (false alarms removed; gaps kept).
 */
export type TruthMix = "fill" | "fill-wire" | "clean";

/**
 * What an applied harness corrects: "detections" (default; the spatial delta on the free logit of
 * risky regions' cells, the path of issue 13) or "actions" (the seed's literal formula on the
 * planner's action logits, S by finite differences: actionFormula.ts; the texture rule is not
 * applied and the planner reads the uncorrected grid), or "oracle": an upper bound of the spatial
 * correction's form, not a harness. The simulator's near-threat cells (the frame's ground truth)
 * say exactly which regions hold a threat (r = 1 there, 0 elsewhere), and the region's whole clip
 * goes to those cells, split evenly: each of a region's k near cells gets regionClip / sqrt(k) on
 * its near-threat logit (||delta_region||_2 = regionClip). The harness still runs (its trace is
 * kept); its own delta and the texture rule are not applied.
 * "gap-risk" (fourteenth session): the harness's own correction (its S, lambda, clip and texture
 * rule) with only its region risk replaced by the truth's: r = 1 on the regions holding a wire-gap
 * cell (a near wire cell the student leaves unflagged; CellLabels.wireGapCells), 0 elsewhere. It
 * separates the two halves of the harness: a perfect risk with the harness's own S and clip.
 */
export type HarnessTarget = "detections" | "actions" | "oracle" | "gap-risk";

/** Counts of the literal action-logit formula over the decisions of a pilot ("actions" target). */
export type ActionFormulaCounts = {
  decisions: number;
  /** Decisions whose argmax manoeuvre the (applied or not) delta changes. */
  changed: number;
  /** ||delta||_2 before the clip, per decision. */
  norms: number[];
  /** Decisions where the clip to DELTA_NORM_MAX acted. */
  clipped: number;
};

export class PlannerPilot implements Pilot {
  readonly needsImage: boolean;
  readonly needsTruth: boolean;
  private readonly planner: LocalPlanner;
  private readonly nav = makeNavigation();
  private readonly logits = new Float32Array(NUM_ACTIONS);
  private threat: Float32Array = new Float32Array(0);
  private near = new Uint8Array(0);
  private oracleThreat = new Float32Array(0);
  private oracleCounts = new Uint16Array(0);
  private mixed = new Float32Array(0);
  private filled = new Float32Array(0);
  private wireProbs = new Float32Array(0);
  private wireMask = new Uint8Array(0);
  private gapCells = new Uint8Array(0);
  private gapRegions = new Float32Array(0);
  /** The held region risk of `riskHold` (max of this step's risk and riskHold x the last held one). */
  private heldRisk = new Float32Array(0);
  private runtime: DetectorRuntime | undefined;
  private harness: SpatialHarnessRuntime | undefined;
  private lastHarness: SpatialStepInfo | undefined;
  private applied = 0;
  /** The action of the previous decision (-1 before the first), for the planner's vertical hold. */
  private previous = -1;
  /** The last climb or descend chosen (-1 for none) and the decisions since (the planner's brakeOnReversal). */
  private lastVertical = -1;
  private sinceVertical = 0;
  /** The last decision is a vertical escape flown with no forward speed (PlannerOptions.verticalInPlace). */
  private inPlace = false;
  /** The final approach's decision (PlannerOptions.arrivalRadius_m): the last decision's, undefined when the planner's own stood. */
  private readonly arrivalOut: ArrivalDecision = { action: 0, forward_m_s: 0 };
  private arrival: ArrivalDecision | undefined;
  /** PlannerOptions.scanWhenStuck_s; undefined when off. */
  private readonly stuckScan: StuckScan | undefined;
  /** The wire evidence of PlannerOptions.verticalInPlaceWireCells (undefined without the condition). */
  private readonly wireEvidence: WireEvidenceWindow | undefined;
  /** PlannerOptions.verticalCommit (undefined when off) and this frame's wire cells. */
  private readonly commitment: VerticalCommitment | undefined;
  private commitMask = new Uint8Array(0);
  /** The event of a pilot that commits nothing. */
  private readonly noCommitEvent: CommitEvent = { turned: false, released: false, evidence: false };
  private readonly noCommitCounts: VerticalCommitCounts = { commitments: 0, byWireCells: 0, byTruth: 0, overridden: 0, released: 0 };
  private readonly truePosition = new Float64Array(3);
  /** The planner's navigation input while the climb when stuck raises the goal's altitude (PlannerOptions.stuckClimb_m). */
  private readonly climbNav: Navigation = makeNavigation();
  private formula: { S: Float32Array; moved: Float32Array; delta: Float32Array; corrected: Float32Array; warped: Float32Array; nav: Navigation; counts: ActionFormulaCounts } | undefined;

  constructor(
    private readonly source: ThreatSource,
    options: Partial<PlannerOptions> = {},
  ) {
    this.planner = new LocalPlanner(options);
    checkDecisionOptions(source, this.planner.options);
    const cells = this.planner.options.verticalInPlaceWireCells;
    this.wireEvidence = cells > 0 ? new WireEvidenceWindow({ level: WIRE_EVIDENCE_LEVEL, cells, window_s: WIRE_EVIDENCE_WINDOW_S }) : undefined;
    const { verticalCommit, verticalCommitWireCells, verticalCommitStall_s } = this.planner.options;
    const side = source.type === "detector" ? source.commitSide : undefined;
    const scan_s = this.planner.options.scanWhenStuck_s;
    const { stuckClimb_m, stuckClimbRelease_m } = this.planner.options;
    this.stuckScan = scan_s > 0 ? new StuckScan(scan_s, stuckClimb_m > 0 ? { climb_m: stuckClimb_m, release_m: stuckClimbRelease_m } : undefined) : undefined;
    this.commitment = verticalCommit > 0 ? new VerticalCommitment({ level: verticalCommit, cells: verticalCommitWireCells, ...(side === undefined ? {} : { side }), ...(verticalCommitStall_s > 0 ? { stall_s: verticalCommitStall_s } : {}) }) : undefined;
    const truthTarget = source.type === "detector" && (source.harness?.target === "oracle" || source.harness?.target === "gap-risk");
    this.needsTruth = source.type === "oracle" || truthTarget || (source.type === "detector" && source.truthMix !== undefined);
    this.needsImage = source.type !== "oracle";
    // Checks the detector's outputs now rather than at the first frame.
    if (source.type === "detector") this.runtime = new DetectorRuntime(source.detector, DETECTOR_CELL_PX, DETECTOR_CELL_PX);
  }

  reset(): void {
    this.harness?.reset();
    this.applied = 0;
    this.previous = -1;
    this.lastVertical = -1;
    this.sinceVertical = 0;
    this.inPlace = false;
    this.arrival = undefined;
    this.stuckScan?.reset();
    this.wireEvidence?.reset();
    this.commitment?.reset();
    this.heldRisk.fill(0);
    if (this.runtime !== undefined) this.runtime.sobelGain = 1;
    this.lastHarness = undefined;
  }

  /** The detector runtime of the last decision (its raw logits and probabilities), if any. */
  get detectorRuntime(): DetectorRuntime | undefined {
    return this.runtime;
  }

  /** The harness runtime (risk, S, delta, features of the last decision), if this pilot has one. */
  get harnessRuntime(): SpatialHarnessRuntime | undefined {
    return this.harness;
  }

  /** What the harness decided on the last decision. */
  get lastHarnessStep(): SpatialStepInfo | undefined {
    return this.lastHarness;
  }

  /**
   * 0 when the last decision is a vertical escape to fly in place (PlannerOptions.verticalInPlace),
   * the final approach's speed when it decided (PlannerOptions.arrivalRadius_m), 0 for a scan when
   * stuck (PlannerOptions.scanWhenStuck_s), else undefined (the action's own speed): Pilot.forward_m_s.
   */
  get forward_m_s(): number | undefined {
    return this.inPlace || this.stuckScan?.scanning === true ? 0 : this.arrival?.forward_m_s;
  }

  /** Whether the planner scored the last decision with the goal's altitude raised (PlannerOptions.stuckClimb_m). */
  get lastClimb(): boolean {
    return this.stuckScan?.climbingNow === true;
  }

  /** Whether the last decision was a scan when stuck (PlannerOptions.scanWhenStuck_s). */
  get lastScan(): boolean {
    return this.stuckScan?.scanning === true;
  }

  /** Whether the final approach (PlannerOptions.arrivalRadius_m) made the last decision. */
  get lastArrival(): boolean {
    return this.arrival !== undefined;
  }

  /** What PlannerOptions.verticalCommit did so far (counts over every flight of this pilot; reset() keeps them). */
  get verticalCommitCounts(): Readonly<VerticalCommitCounts> {
    return this.commitment?.counts ?? this.noCommitCounts;
  }

  /** What PlannerOptions.verticalCommit did at the last decision. */
  get lastCommit(): Readonly<CommitEvent> {
    return this.commitment?.event ?? this.noCommitEvent;
  }

  /** The side PlannerOptions.verticalCommit holds (climb's or descend's action index), -1 for none. */
  get verticalCommitSide(): number {
    return this.commitment?.side ?? -1;
  }

  /** max |delta| the planner's input received on the last decision (0 when nothing was applied). */
  get lastAppliedDelta(): number {
    return this.applied;
  }

  /**
   * The class probabilities (NUM_DETECTION_CLASSES per cell) the planner's grid came from on the
   * last decision: corrected where the harness corrects the detections, else the detector's.
   */
  get plannerClassProbs(): Float32Array | undefined {
    const h = this.source.type === "detector" ? this.source.harness : undefined;
    return h?.apply === true && (h.target ?? "detections") === "detections" ? this.harness?.classProbs : this.runtime?.classProbs;
  }

  /** The literal action-logit formula's counts so far ("actions" target only). */
  get actionFormulaCounts(): Readonly<ActionFormulaCounts> | undefined {
    return this.formula?.counts;
  }

  /** The threat grid of the last decision (rows*cols). */
  get lastThreat(): Float32Array {
    return this.threat;
  }

  /** The planner's logits of the last decision (ACTIONS order). */
  get lastLogits(): Float32Array {
    return this.logits;
  }

  /** The "oracle" target: near-threat logits of the true near cells raised by regionClip / sqrt(k) per region. */
  private applyOracleCorrection(truth: FrameTruth, env: DroneEnvironment, rows: number, cols: number, clip: number): void {
    const runtime = this.runtime as DetectorRuntime;
    if (this.near.length !== rows * cols) this.near = new Uint8Array(rows * cols);
    if (this.oracleThreat.length !== rows * cols) this.oracleThreat = new Float32Array(rows * cols);
    nearThreatCells(truth.visibleMask, truth.depth, { width: env.width, height: env.height, cell_px: DETECTOR_CELL_PX }, this.nav.forwardSpeed_m_s, undefined, this.near);
    this.oracleThreat.set(runtime.threat);
    // k true near cells per region, then each of them raised by clip / sqrt(k).
    const regions = (rows * cols) / (REGION_CELLS * REGION_CELLS);
    if (this.oracleCounts.length !== regions) this.oracleCounts = new Uint16Array(regions);
    const k = this.oracleCounts;
    k.fill(0);
    for (let i = 0; i < this.near.length; i++) k[regionOfCell(i, cols)]! += this.near[i]!;
    for (let i = 0; i < this.near.length; i++) {
      if (this.near[i] !== 1) continue;
      const push = clip / Math.sqrt(k[regionOfCell(i, cols)]!);
      this.applied = Math.max(this.applied, push);
      this.oracleThreat[i] = 1 / (1 + Math.exp(-(runtime.logits[i * DETECTOR_OUTPUTS_PER_CELL + THREAT_CHANNEL]! + push)));
    }
    this.threat = this.oracleThreat;
  }

  /** The "gap-risk" target: 1 on the regions holding a near wire cell the student's own threat leaves under the flag level. */
  private markGapRegions(truth: FrameTruth | undefined, env: DroneEnvironment, rows: number, cols: number): void {
    if (truth === undefined) throw new Error("the gap-risk target needs the frame's ground truth (render it when the pilot's needsTruth is set)");
    const n = rows * cols;
    if (this.gapCells.length !== n) this.gapCells = new Uint8Array(n);
    if (this.gapRegions.length !== n / (REGION_CELLS * REGION_CELLS)) this.gapRegions = new Float32Array(n / (REGION_CELLS * REGION_CELLS));
    if (this.wireMask.length !== truth.visibleMask.length) this.wireMask = new Uint8Array(truth.visibleMask.length);
    nearClassCells(truth.visibleMask, WIRE_CLASS, truth.depth, { width: env.width, height: env.height, cell_px: DETECTOR_CELL_PX }, this.nav.forwardSpeed_m_s, this.wireMask, this.gapCells);
    wireGapCells(this.gapCells, (this.runtime as DetectorRuntime).threat, this.gapCells);
    this.gapRegions.fill(0);
    markRegions(this.gapCells, cols, this.gapRegions);
  }

  /** LineFill: the grid the planner reads, gaps along straight structures raised. */
  private fillLines(fill: LineFill, rows: number, cols: number): void {
    if (this.filled.length !== rows * cols) this.filled = new Float32Array(rows * cols);
    let support: Float32Array = this.threat;
    if (fill.wireOnly === true) {
      const probs = this.plannerClassProbs;
      if (probs === undefined) throw new Error("line fill on wires needs the detector's class probabilities");
      if (this.wireProbs.length !== rows * cols) this.wireProbs = new Float32Array(rows * cols);
      for (let i = 0; i < rows * cols; i++) this.wireProbs[i] = probs[i * NUM_DETECTION_CLASSES + WIRE_CLASS]!;
      support = this.wireProbs;
    }
    this.threat = lineFilled(this.threat, rows, cols, fill, this.filled, support);
  }

  /** TruthMix: the grid the planner reads, with one kind of error mended from the frame's truth. */
  private mixTruth(mix: TruthMix, truth: FrameTruth | undefined, env: DroneEnvironment, rows: number, cols: number): void {
    if (truth === undefined) throw new Error(`truth mix "${mix}" needs the frame's ground truth (render it when the pilot's needsTruth is set)`);
    const n = rows * cols;
    if (this.near.length !== n) this.near = new Uint8Array(n);
    if (this.mixed.length !== n) this.mixed = new Float32Array(n);
    const grid = { width: env.width, height: env.height, cell_px: DETECTOR_CELL_PX };
    if (mix === "fill-wire") {
      if (this.wireMask.length !== truth.visibleMask.length) this.wireMask = new Uint8Array(truth.visibleMask.length);
      nearClassCells(truth.visibleMask, WIRE_CLASS, truth.depth, grid, this.nav.forwardSpeed_m_s, this.wireMask, this.near);
    } else nearThreatCells(truth.visibleMask, truth.depth, grid, this.nav.forwardSpeed_m_s, undefined, this.near);
    for (let i = 0; i < n; i++) {
      const t = this.threat[i]!;
      this.mixed[i] = mix === "clean" ? (this.near[i] === 1 ? t : 0) : this.near[i] === 1 ? 1 : t;
    }
    this.threat = this.mixed;
  }

  act(rgb: Uint8Array, _state: Float32Array, env: DroneEnvironment, truth?: FrameTruth): number {
    const rows = env.height / DETECTOR_CELL_PX;
    const cols = env.width / DETECTOR_CELL_PX;
    env.navigation(this.nav);
    switch (this.source.type) {
      case "oracle": {
        if (truth === undefined) throw new Error("the oracle planner needs the frame's ground truth (flyClosedLoop renders it when needsTruth)");
        if (this.threat.length !== rows * cols) {
          this.threat = new Float32Array(rows * cols);
          this.near = new Uint8Array(rows * cols);
        }
        nearThreatCells(truth.visibleMask, truth.depth, { width: env.width, height: env.height, cell_px: DETECTOR_CELL_PX }, this.nav.forwardSpeed_m_s, undefined, this.near);
        for (let i = 0; i < this.near.length; i++) this.threat[i] = this.near[i]!;
        break;
      }
      case "detector": {
        if (this.runtime === undefined || this.runtime.width !== env.width || this.runtime.height !== env.height) {
          this.runtime = new DetectorRuntime(this.source.detector, env.width, env.height);
        }
        const h = this.source.harness;
        if (h !== undefined && (this.harness === undefined || this.harness.width !== env.width || this.harness.height !== env.height)) {
          // "gap-risk": the harness's risk replaced in place by the truth's regions (gapRegions, set before each step).
          // riskHold (sixteenth session, eval only): each region's risk held at riskHold x its last held value when it drops.
          const hold = h.riskHold;
          const options =
            h.target === "gap-risk" ? { ...h.options, riskPolicy: (risk: Float32Array) => risk.set(this.gapRegions) } : hold !== undefined ? { ...h.options, riskPolicy: (risk: Float32Array) => this.holdRisk(risk, hold) } : h.options;
          this.harness = new SpatialHarnessRuntime(h.model, env.width, env.height, options);
        }
        // Probabilities nobody reads are not computed; every reader here goes through the getters.
        this.runtime.deferProbabilities = true;
        if (this.harness !== undefined) this.harness.deferClassProbabilities = true;
        if (h !== undefined && h.target === "actions") return this.actWithActionFormula(rgb, env, rows, cols, h.apply);
        this.applied = 0;
        if (h === undefined || this.harness === undefined) {
          this.runtime.infer(rgb);
          this.threat = this.runtime.threat;
        } else {
          // One pass over the frame's bytes for the detector's input and the harness's grey frame;
          // the harness's image side then follows (the same bits as its own prepare()).
          if (!this.harness.isPrepared(env.time_s)) {
            this.runtime.infer(rgb, this.harness.grey);
            this.harness.prepareFromGrey(this.nav, env.time_s);
          } else this.runtime.infer(rgb);
          if (h.target === "gap-risk") this.markGapRegions(truth, env, rows, cols);
          this.lastHarness = this.harness.step(this.runtime.logits, rgb, this.nav, env.time_s);
          // The uncorrected probabilities are computed only where the planner reads them.
          const corrects = h.apply && (h.target === undefined || h.target === "detections" || h.target === "gap-risk");
          if (!corrects) this.threat = this.runtime.threat;
          if (h.target === "oracle") {
            if (truth === undefined) throw new Error("the oracle correction needs the frame's ground truth (render it when the pilot's needsTruth is set)");
            if (h.apply) this.applyOracleCorrection(truth, env, rows, cols, h.options?.regionClip ?? DELTA_NORM_MAX);
          } else if (h.apply) {
            this.threat = this.harness.threat;
            this.applied = this.lastHarness.maxAbs;
            // The texture rule (seed 4.2) strengthens the Sobel channel of the next frame.
            this.runtime.sobelGain = this.lastHarness.textureGain;
          }
        }
        if (this.source.lineFill !== undefined) this.fillLines(this.source.lineFill, rows, cols);
        if (this.source.truthMix !== undefined) this.mixTruth(this.source.truthMix, truth, env, rows, cols);
        break;
      }
    }
    const plannerNav = this.stuckScan === undefined ? this.nav : this.stuckScan.plannerNav(this.nav, env.time_s, this.climbNav);
    this.planner.score(plannerInput({ threat: this.threat, rows, cols, width: env.width, height: env.height }, plannerNav), this.logits);
    // The vertical hold (PlannerOptions.wVerticalHold, off by default; not in the action-formula row).
    const chosen = argmaxAction(this.planner.holdVertical(this.logits, this.previous));
    // Braking on a vertical reversal (PlannerOptions.brakeOnReversal, off by default).
    this.previous = this.commitVertical(this.planner.brakeReversal(chosen, this.lastVertical, this.sinceVertical), env);
    const wireSeen = this.wireEvidenceFor(env.time_s);
    this.inPlace = this.planner.inPlace(this.previous) && wireSeen;
    this.arrival = plannerArrival(this.planner, this.nav, this.arrivalOut);
    if (this.arrival !== undefined) {
      this.previous = this.arrival.action;
      this.inPlace = false;
    }
    if (this.stuckScan !== undefined) this.previous = this.stuckScan.decide(this.previous, Math.hypot(this.nav.goalDistance_m, this.nav.goalDz_m), env.time_s, this.planner);
    if (this.previous === ACTION_CLIMB || this.previous === ACTION_DESCEND) {
      this.lastVertical = this.previous;
      this.sinceVertical = 0;
    } else this.sinceVertical++;
    return this.previous;
  }

  /**
   * PlannerOptions.verticalCommit (VerticalCommitment) on the uncorrected detections' wire cells
   * (countWireCells at WIRE_EVIDENCE_LEVEL); the source's commitSide "truth" and "truth-each" take
   * the side from the world's wires (trueWireSide). A pilot without a detector (the oracle) has no
   * evidence and is left as it is.
   */
  private commitVertical(action: number, env: DroneEnvironment): number {
    const c = this.commitment;
    if (c === undefined || this.runtime === undefined) return action;
    const cells = this.runtime.logits.length / DETECTOR_OUTPUTS_PER_CELL;
    if (this.commitMask.length !== cells) this.commitMask = new Uint8Array(cells);
    const count = countWireCells(this.runtime.logits, WIRE_EVIDENCE_LEVEL, this.commitMask);
    return c.decide(action, this.commitMask, count, env.time_s, this.planner, this.nav, () => trueWireSide(env, this.nav, this.planner.options, this.truePosition));
  }

  /**
   * PlannerOptions.verticalInPlaceWireCells: whether the uncorrected detections of this frame or of
   * one within WIRE_EVIDENCE_WINDOW_S before hold enough confident wire cells (always true without
   * the condition; false for a pilot without a detector). A clock that went back is no evidence.
   */
  private wireEvidenceFor(time_s: number): boolean {
    if (this.wireEvidence === undefined) return true;
    if (this.runtime === undefined) return false;
    return this.wireEvidence.observe(this.runtime.logits, time_s);
  }

  /** risk <- max(risk, hold x held) per region, and held <- risk (the riskHold persistence). */
  private holdRisk(risk: Float32Array, hold: number): void {
    if (this.heldRisk.length !== risk.length) this.heldRisk = new Float32Array(risk.length);
    for (let i = 0; i < risk.length; i++) {
      const v = Math.max(risk[i]!, hold * this.heldRisk[i]!);
      this.heldRisk[i] = v;
      risk[i] = v;
    }
  }

  /**
   * The "actions" target: S[i, j] of the planner's logits by finite differences (the detector and
   * the planner on the frame warped by SGT_EPSILON along yaw, pitch and forward, the navigation
   * moved the same way), r and lambda from the harness, delta from actionFormulaDelta; the
   * unperturbed frame is inferred last so the runtimes hold its outputs.
   */
  private actWithActionFormula(rgb: Uint8Array, env: DroneEnvironment, rows: number, cols: number, apply: boolean): number {
    const runtime = this.runtime!;
    const harness = this.harness!;
    const J = NUM_SENSITIVITY_DIMS;
    const eps = SGT_EPSILON;
    const f = (this.formula ??= { S: new Float32Array(NUM_ACTIONS * J), moved: new Float32Array(NUM_ACTIONS * J), delta: new Float32Array(NUM_ACTIONS), corrected: new Float32Array(NUM_ACTIONS), warped: new Float32Array(0), nav: makeNavigation(), counts: { decisions: 0, changed: 0, norms: [], clipped: 0 } });
    if (f.warped.length !== rgb.length) f.warped = new Float32Array(rgb.length);
    const grid = { rows, cols, width: env.width, height: env.height };
    for (let j = 0; j < J; j++) {
      warpImage(rgb, env.width, env.height, 3, harness.camera, { forward_m: j === 2 ? eps : 0, yaw_rad: j === 0 ? eps : 0, pitchDown_rad: j === 1 ? eps : 0, altitude_m: this.nav.altitude_m, bodyPitch_rad: this.nav.pitch_rad }, f.warped);
      runtime.infer(f.warped);
      movedNavigation(this.nav, j, eps, f.nav);
      this.planner.score(plannerInput({ threat: runtime.threat, ...grid }, f.nav), f.moved.subarray(j * NUM_ACTIONS, (j + 1) * NUM_ACTIONS));
    }
    runtime.infer(rgb);
    this.threat = runtime.threat;
    this.lastHarness = harness.step(runtime.logits, rgb, this.nav, env.time_s);
    this.planner.score(plannerInput({ threat: this.threat, ...grid }, this.nav), this.logits);
    for (let i = 0; i < NUM_ACTIONS; i++) for (let j = 0; j < J; j++) f.S[i * J + j] = Math.abs(f.moved[j * NUM_ACTIONS + i]! - this.logits[i]!) / eps;
    const st = actionFormulaDelta(f.S, harness.rates, Number.isFinite(this.lastHarness.maxRisk) ? Math.min(1, Math.max(0, this.lastHarness.maxRisk)) : Number.NaN, this.lastHarness.lambda, f.delta, DELTA_NORM_MAX);
    const before = argmaxAction(this.logits);
    for (let i = 0; i < NUM_ACTIONS; i++) f.corrected[i] = this.logits[i]! + f.delta[i]!;
    const after = argmaxAction(f.corrected);
    f.counts.decisions++;
    if (after !== before) f.counts.changed++;
    f.counts.norms.push(st.normRaw);
    if (st.normRaw > DELTA_NORM_MAX) f.counts.clipped++;
    this.applied = apply ? st.maxAbs : 0;
    if (!apply) return before;
    this.logits.set(f.corrected);
    return after;
  }
}

