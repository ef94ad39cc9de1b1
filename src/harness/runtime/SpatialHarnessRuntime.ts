/**
 * The per-frame harness step of the pipeline (issue 13): detector logits + the camera frame +
 * navigation -> the imagined frame one metre ahead (bilinear warp), the harness's risk per region
 * and S per cell, the spatial delta, and the corrected class and near-threat probabilities the
 * planner reads. One class for the harness node, `eval`, the main job and training rollouts, as
 * DetectorRuntime is for the detector. Rates |ds_j/dt| are the yaw rate and pitch rate
 * differenced over the last decision interval (a sliding window of two attitude samples) and
 * the forward speed.
 */
import { LambdaSchedule, type LambdaScheduleOptions } from "../correction/LambdaSchedule";
import { DELTA_RUNAWAY } from "../correction/constants";
import { textureGain } from "../correction/textureGain";
import type { Navigation } from "../../control/navigation";
import { EvidenceWindow } from "../../control/VerticalCommitment";
import { NUM_DETECTION_CLASSES } from "../actions";
import { forwardCells, HARNESS_CELL_CHANNELS, NUM_SENSITIVITY_DIMS, REGION_CELLS, spatialWorkspace, type SpatialHarness, type SpatialHarnessWeights, type SpatialWorkspace } from "../spatial/SpatialHarness";
import { aimSpatialDelta, applySpatialDelta, checkCorrectionAim, DELTA_NORM_MAX, spatialDelta, type CorrectionAim, type SpatialDeltaStats } from "../spatial/spatialCorrection";
import { DETECTOR_OUTPUTS_PER_CELL, featureWorkspace, imageFeatures, spatialFeatures, type FeatureWorkspace } from "../spatial/spatialFeatures";
import { greyFromRgb8, warpCamera, warpImage, type WarpCamera } from "../spatial/warp";
import { cellSoftmax, DETECTOR_CELL_PX, threatFromLogits } from "./DetectorRuntime";

export type SpatialHarnessOptions = {
  /** Horizontal field of view of the camera, rad. Default pi/2 (the simulator's camera). */
  hfov_rad: number;
  /** Downward pitch of the optical axis from body x, rad. Default 5 deg (the simulator's camera). */
  cameraPitch_rad: number;
  /** ||delta_region||_2 bound. Default DELTA_NORM_MAX (0.5). */
  regionClip: number;
  /** Distance imagined ahead, m. Default 1. */
  imagine_m: number;
  /**
   * The runtime's runaway alarm: three steps in a row with the applied max|delta| above this halve
   * lambda (down to its floor). Default DELTA_RUNAWAY (0.6, SPEC/seed 5.1, set for the clip 0.5).
   * With a larger regionClip this level, not the clip, bounds the usual correction (docs/coevolution.md
   * "The runaway alarm at clips above 0.5").
   */
  runawayDelta: number;
  /** Lambda schedule (initial 0.3, decays while r < 0.2, grows while r > 0.7). */
  lambda: LambdaScheduleOptions;
  /**
   * The camera's own frame when the runtime's frame is that frame padded on the right and the
   * bottom to whole regions (nodes/common/models/SpatialCorrector.ts: 1280x720 is 90 cell rows, not
   * whole regions of 4): the imagined view's focal length (from hfov_rad and this width) and
   * principal point (this frame's centre) are the camera's, and pixel coordinates coincide.
   * Default undefined: the runtime's frame is the camera's.
   */
  cameraFrame: { width: number; height: number } | undefined;
  /**
   * Training only (the PPO ablation, spatial/ppoSpatialHarness.ts): called with the region risk
   * after the lambda schedule has read it and before the delta is formed; it may overwrite the
   * risk in place (a sampled 0/1 correction per region). Default undefined: the risk is used as is.
   */
  riskPolicy: ((risk: Float32Array) => void) | undefined;
  /**
   * The aimed correction (seventeenth session; spatialCorrection.ts aimSpatialDelta): each region's
   * clipped delta moved onto its cells whose uncorrected near-threat probability is in [low, high),
   * keeping the region's L2 norm. Default undefined: SPEC's formula as is. Measured on validation
   * with [0.1, 0.5): it closes more of the wire gaps but removes no collision (docs/coevolution.md).
   */
  aim: CorrectionAim | undefined;
  /**
   * A floor on the region risk as the correction reads it (twenty-fifth session): r' = max(0, r - floor) / (1 - floor),
   * after the lambda schedule has read the raw risk, so lambda, the runaway alarm and the texture rule are those of the
   * harness as trained and only the regions under the floor lose their push. The wire-gap risk is trained with its
   * positives weighted by about 46, so r is far above a gap's probability and most regions carry some push; the floor
   * keeps the confident ones. Default 0: the risk as is. Measured on validation at 0.5: 11 collisions of 120 against
   * the shipped 6 (docs/coevolution.md "Where the push lands"): the low-risk regions' push is worth keeping.
   */
  riskFloor: number;
  /**
   * A gate on wire evidence in the scene (twenty-eighth session): the correction is applied only while some frame of
   * the last `window_s` seconds (this one included) had at least `cells` cells whose uncorrected wire probability
   * reached `level`; otherwise the delta is zero and the planner reads the detector's own probabilities. Per frame, not
   * per region: the regions the wire-gap harness pushes on are the ones where the wire is missed, so the evidence is
   * counted over the whole frame. A count, not the frame's largest probability: on validation seeds apart from the
   * rule's, some cell reaches 0.5 in nearly every frame of the wireless trees_only family (branch edges), so one cell
   * is no evidence of a wire. The risk, S and the lambda schedule run as without the gate. Default undefined: no gate.
   */
  wireGate: WireGate | undefined;
};

/** SpatialHarnessOptions.wireGate: a cell's uncorrected wire probability in [0, 1], a count of cells >= 1, a window in seconds. */
export type WireGate = { level: number; cells: number; window_s: number };

export function checkWireGate(g: WireGate): void {
  if (!(g.level >= 0 && g.level <= 1)) throw new RangeError(`wireGate.level=${g.level}, expected a probability in [0, 1]`);
  if (!(Number.isInteger(g.cells) && g.cells >= 1)) throw new RangeError(`wireGate.cells=${g.cells}, expected an integer >= 1`);
  if (!(g.window_s >= 0 && Number.isFinite(g.window_s))) throw new RangeError(`wireGate.window_s=${g.window_s}, expected a finite number of seconds >= 0`);
}

export const DEFAULT_SPATIAL_HARNESS_OPTIONS: Readonly<SpatialHarnessOptions> = Object.freeze({
  hfov_rad: Math.PI / 2,
  cameraPitch_rad: (5 * Math.PI) / 180,
  regionClip: DELTA_NORM_MAX,
  imagine_m: 1,
  runawayDelta: DELTA_RUNAWAY,
  lambda: {},
  cameraFrame: undefined,
  riskPolicy: undefined,
  aim: undefined,
  riskFloor: 0,
  wireGate: undefined,
});

/** What one harness step decided, for diagnostics and the report. */
export type SpatialStepInfo = SpatialDeltaStats & {
  lambda: number;
  /** Largest region risk. */
  maxRisk: number;
  /** Mean region risk. */
  meanRisk: number;
  /** Texture gain for the next frame (seed 4.2). */
  textureGain: number;
  /** True when the runaway alarm halved lambda on this step. */
  runaway: boolean;
  /** Cells of the frame whose uncorrected wire probability reached the wire gate's level; NaN without a gate (not counted). */
  wireEvidence: number;
  /** False when the wire gate held the correction back on this step (delta all zeros); true without a gate. */
  gateOpen: boolean;
};

export class SpatialHarnessRuntime {
  readonly rows: number;
  readonly cols: number;
  readonly options: SpatialHarnessOptions;
  readonly camera: WarpCamera;
  /** Region risk, row-major (rows / REGION_CELLS x cols / REGION_CELLS). */
  readonly risk: Float32Array;
  /** S[free, j] per cell, NUM_SENSITIVITY_DIMS per cell. */
  readonly sensitivity: Float32Array;
  /** The harness's per-cell inputs of the last step. */
  readonly features: Float32Array;
  /** delta per cell of the last step (<= 0). */
  readonly delta: Float32Array;
  /** Corrected logits (DETECTOR_OUTPUTS_PER_CELL per cell), probabilities from them. */
  readonly corrected: Float32Array;
  readonly threat: Float32Array;
  /** |yaw rate| (rad/s), |pitch rate| (rad/s), |forward speed| (m/s) of the last step. */
  readonly rates = new Float32Array(NUM_SENSITIVITY_DIMS);
  /** Grey current frame and the imagined frame one metre ahead (0-255). */
  readonly grey: Float32Array;
  readonly imagined: Float32Array;
  private readonly weights: SpatialHarnessWeights;
  private readonly ws: SpatialWorkspace;
  private readonly fws: FeatureWorkspace;
  private readonly schedule: LambdaSchedule;
  private readonly wireProb: Float32Array;
  private readonly probs: Float32Array;
  /** True when `corrected` changed since `probs` was last computed from it. */
  private probsStale = false;
  private last: { yaw: number; pitch: number; time_s: number } | undefined;
  private above = 0;
  /** The wire gate's windowed evidence (wireGate; undefined without a gate). */
  private readonly evidence: WireEvidenceWindow | undefined;
  /** The frame prepare() computed the image side for (consumed by the next step()). */
  private prepared: { time_s: number } | undefined;
  /** Steps that found their image side prepared ahead, of all steps. */
  readonly preparedSteps = { reused: 0, steps: 0 };

  constructor(
    harness: SpatialHarness | SpatialHarnessWeights,
    readonly width: number,
    readonly height: number,
    options: Partial<SpatialHarnessOptions> = {},
  ) {
    if (!(width % (DETECTOR_CELL_PX * REGION_CELLS) === 0 && height % (DETECTOR_CELL_PX * REGION_CELLS) === 0 && width > 0 && height > 0)) {
      throw new RangeError(`spatial harness frame ${width}x${height}, expected positive multiples of ${DETECTOR_CELL_PX * REGION_CELLS} px (whole regions of ${REGION_CELLS}x${REGION_CELLS} cells)`);
    }
    this.options = { ...DEFAULT_SPATIAL_HARNESS_OPTIONS, ...options };
    if (!(this.options.regionClip > 0)) throw new RangeError(`regionClip=${this.options.regionClip}, expected > 0`);
    if (!(this.options.runawayDelta > 0)) throw new RangeError(`runawayDelta=${this.options.runawayDelta}, expected > 0 (Infinity: no alarm)`);
    if (this.options.aim !== undefined) checkCorrectionAim(this.options.aim);
    if (!(this.options.riskFloor >= 0 && this.options.riskFloor < 1)) throw new RangeError(`riskFloor=${this.options.riskFloor}, expected a number in [0, 1)`);
    this.evidence = this.options.wireGate === undefined ? undefined : new WireEvidenceWindow(this.options.wireGate);
    if (!(this.options.imagine_m >= 0)) throw new RangeError(`imagine_m=${this.options.imagine_m}, expected >= 0`);
    this.weights = "snapshotWeights" in harness ? harness.snapshotWeights() : harness;
    const cf = this.options.cameraFrame;
    if (cf !== undefined && !(Number.isInteger(cf.width) && Number.isInteger(cf.height) && cf.width > 0 && cf.height > 0 && cf.width <= width && cf.height <= height)) {
      throw new RangeError(`cameraFrame ${cf.width}x${cf.height}, expected a frame of at least 1x1 px inside the runtime's ${width}x${height}`);
    }
    this.camera = warpCamera(cf?.width ?? width, cf?.height ?? height, this.options.hfov_rad, this.options.cameraPitch_rad);
    this.rows = height / DETECTOR_CELL_PX;
    this.cols = width / DETECTOR_CELL_PX;
    const cells = this.rows * this.cols;
    this.risk = new Float32Array(cells / (REGION_CELLS * REGION_CELLS));
    this.sensitivity = new Float32Array(cells * NUM_SENSITIVITY_DIMS);
    this.features = new Float32Array(cells * HARNESS_CELL_CHANNELS);
    this.delta = new Float32Array(cells);
    this.corrected = new Float32Array(cells * DETECTOR_OUTPUTS_PER_CELL);
    this.probs = new Float32Array(cells * NUM_DETECTION_CLASSES);
    this.threat = new Float32Array(cells);
    this.wireProb = new Float32Array(cells);
    this.grey = new Float32Array(width * height);
    this.imagined = new Float32Array(width * height);
    this.ws = spatialWorkspace(this.weights, cells);
    this.fws = featureWorkspace(cells);
    this.schedule = new LambdaSchedule(this.options.lambda);
  }

  /**
   * When true, step() computes the corrected near-threat probabilities (what the planner reads)
   * and leaves classProbs to its first read (eval/PlannerPilot.ts; the texture rule's wire cells
   * are found without them, wireCandidates). Default false: step() fills both, so a holder of the
   * arrays themselves sees every frame.
   */
  deferClassProbabilities = false;

  /** Class probabilities of the corrected logits (4 per cell, as DetectorRuntime.classProbs). */
  get classProbs(): Float32Array {
    if (this.probsStale) this.computeClassProbabilities();
    return this.probs;
  }

  /** The class half of probabilitiesFromLogits (step() has computed the threat half). */
  private computeClassProbabilities(): void {
    for (let c = 0; c < this.threat.length; c++) cellSoftmax(this.corrected, c, this.probs);
    this.probsStale = false;
  }

  get lambda(): number {
    return this.schedule.value;
  }

  /** A new flight: forgets the attitude history and starts the lambda schedule over. */
  reset(): void {
    this.schedule.reset();
    this.last = undefined;
    this.above = 0;
    this.prepared = undefined;
    this.evidence?.reset();
  }

  /**
   * The image side of the next step, ahead of the detector's logits: the grey frame, the imagined
   * frame one metre ahead (from the altitude and body pitch of the frame, given here) and their
   * gradient statistics. The next step() of the same frame (same `time_s`) uses them whatever
   * navigation it gets (a node's attitude moves on while the detector runs: the frame's own is the
   * right one for its imagined view); any other step() computes them itself from its navigation.
   * With the same navigation, prepare() + step() and step() alone give the same bits.
   */
  prepare(rgb8: Uint8Array | Float32Array, nav: Readonly<Pick<Navigation, "altitude_m" | "pitch_rad">>, time_s: number): void {
    greyFromRgb8(rgb8, this.grey);
    this.prepareFromGrey(nav, time_s);
  }

  /**
   * prepare() of a frame whose grey levels are already in `grey` (greyFromRgb8's values: the
   * detector's input pass writes them there when given this buffer, DetectorRuntime.infer), so
   * the one-thread pipeline reads the frame's bytes once (eval/PlannerPilot.ts).
   */
  prepareFromGrey(nav: Readonly<Pick<Navigation, "altitude_m" | "pitch_rad">>, time_s: number): void {
    warpImage(this.grey, this.width, this.height, 1, this.camera, { forward_m: this.options.imagine_m, yaw_rad: 0, pitchDown_rad: 0, altitude_m: nav.altitude_m, bodyPitch_rad: nav.pitch_rad }, this.imagined);
    imageFeatures(this.grey, this.imagined, this.width, this.height, DETECTOR_CELL_PX, this.fws);
    this.prepared = { time_s };
  }

  /** True when prepare() or prepareFromGrey() computed the image side of the frame at `time_s` and no step() used it yet. */
  isPrepared(time_s: number): boolean {
    return this.prepared?.time_s === time_s;
  }

  /**
   * One step: `logits` from DetectorRuntime.logits for `rgb8` (width*height*3), navigation of the
   * same instant, `time_s` its time (the rates are differenced against the previous step). After
   * prepare() of the same frame, `rgb8` is not read again.
   */
  step(logits: Float32Array, rgb8: Uint8Array | Float32Array, nav: Readonly<Navigation>, time_s: number): SpatialStepInfo {
    if (logits.length !== this.corrected.length) throw new RangeError(`logits length=${logits.length}, expected ${this.corrected.length}`);
    const prev = this.last;
    const dt = prev === undefined ? 0 : time_s - prev.time_s;
    const wrap = (a: number): number => Math.atan2(Math.sin(a), Math.cos(a));
    this.rates[0] = prev !== undefined && dt > 0 ? Math.abs(wrap(nav.yaw_rad - prev.yaw)) / dt : 0;
    this.rates[1] = prev !== undefined && dt > 0 ? Math.abs(nav.pitch_rad - prev.pitch) / dt : 0;
    this.rates[2] = Math.abs(nav.forwardSpeed_m_s);
    for (let j = 0; j < NUM_SENSITIVITY_DIMS; j++) if (!Number.isFinite(this.rates[j])) this.rates[j] = 0;
    this.last = { yaw: nav.yaw_rad, pitch: nav.pitch_rad, time_s };
    this.preparedSteps.steps++;
    if (this.isPrepared(time_s)) this.preparedSteps.reused++;
    else this.prepare(rgb8, nav, time_s);
    this.prepared = undefined;
    spatialFeatures(logits, this.width, this.height, DETECTOR_CELL_PX, this.fws, this.features);
    forwardCells(this.weights, this.features, this.rows, this.cols, this.ws, this.risk, this.sensitivity);
    let maxRisk = 0;
    let sumRisk = 0;
    for (const r of this.risk) {
      maxRisk = Math.max(maxRisk, r);
      sumRisk += r;
    }
    const lambda = this.schedule.update(Number.isFinite(maxRisk) ? Math.min(1, Math.max(0, maxRisk)) : 0);
    this.options.riskPolicy?.(this.risk);
    const floor = this.options.riskFloor;
    if (floor > 0) for (let i = 0; i < this.risk.length; i++) this.risk[i] = Math.max(0, this.risk[i]! - floor) / (1 - floor);
    const gateOpen = this.evidence === undefined || this.evidence.observe(logits, time_s);
    const wireEvidence = this.evidence === undefined ? Number.NaN : this.evidence.cells;
    let stats: SpatialDeltaStats;
    if (gateOpen) {
      const formed = spatialDelta(this.risk, this.sensitivity, this.rates, lambda, this.rows, this.cols, this.options.regionClip, this.delta);
      const aim = this.options.aim;
      stats = aim === undefined || formed.rejected ? formed : aimSpatialDelta(this.delta, logits, this.rows, this.cols, aim, formed);
    } else {
      // A shut gate forms no delta at all (nothing is looked at, so nothing is rejected).
      this.delta.fill(0);
      stats = { maxRegionNorm: 0, maxAbs: 0, clippedRegions: 0, activeRegions: 0, rejected: false };
    }
    applySpatialDelta(logits, this.delta, this.corrected);
    threatFromLogits(this.corrected, this.threat);
    this.probsStale = true;
    if (!this.deferClassProbabilities) this.computeClassProbabilities();
    // Runaway alarm (seed): three steps in a row with max|delta| above options.runawayDelta halve lambda.
    let runaway = false;
    this.above = stats.maxAbs > this.options.runawayDelta ? this.above + 1 : 0;
    if (this.above >= 3) {
      this.schedule.reduceForRunaway();
      this.above = 0;
      runaway = true;
    }
    wireCandidates(this.corrected, this.wireProb, this.probs);
    const gain = textureGain({ cellVariance: this.fws.gradVar, wireProb: this.wireProb, altitude_m: nav.altitude_m, risk: Number.isFinite(maxRisk) ? maxRisk : 0 });
    return { ...stats, lambda, maxRisk, meanRisk: sumRisk / this.risk.length, textureGain: gain, runaway, wireEvidence, gateOpen };
  }
}

/**
 * The cells of detector logits (DETECTOR_OUTPUTS_PER_CELL per cell, class logits first) whose wire probability is
 * >= level: p_wire = 1 / sum_k exp(l_k - l_wire), the softmax's wire share without forming the other three. With
 * `mask` (one entry per cell), each cell's entry is set to 1 if it counts, else 0.
 */
export function countWireCells(logits: Float32Array, level: number, mask?: Uint8Array): number {
  const k = DETECTOR_OUTPUTS_PER_CELL;
  if (mask !== undefined && mask.length * k !== logits.length) {
    throw new RangeError(`countWireCells: mask.length=${mask.length}, expected one entry per cell (${logits.length / k})`);
  }
  let n = 0;
  for (let o = 0, c = 0; o + k <= logits.length; o += k, c++) {
    const w = logits[o + 1]!;
    const p = 1 / (Math.exp(logits[o]! - w) + 1 + Math.exp(logits[o + 2]! - w) + Math.exp(logits[o + 3]! - w));
    const counts = p >= level;
    if (counts) n++;
    if (mask !== undefined) mask[c] = counts ? 1 : 0;
  }
  return n;
}

/**
 * Windowed wire evidence: open within `window_s` seconds of a frame with at least `cells` cells whose
 * wire probability (countWireCells) reached `level`. The wire gate (wireGate) and the planner's escape
 * in place (PlannerOptions.verticalInPlaceWireCells, PlannerPilot) both read it. A clock that went
 * back (a replayed bag restarted without reset()) forgets the evidence: it stays shut until wires
 * are seen again.
 */
export class WireEvidenceWindow {
  private readonly window: EvidenceWindow;
  /** Cells at the level in the last observed frame. */
  cells = 0;

  constructor(readonly gate: Readonly<WireGate>) {
    checkWireGate(gate);
    this.window = new EvidenceWindow(gate.cells, gate.window_s);
  }

  /** Reads one frame's logits (DETECTOR_OUTPUTS_PER_CELL per cell) at sim time `time_s`; true while open. `mask`: the frame's counted cells (countWireCells). */
  observe(logits: Float32Array, time_s: number, mask?: Uint8Array): boolean {
    this.cells = countWireCells(logits, this.gate.level, mask);
    return this.window.observe(this.cells, time_s);
  }

  reset(): void {
    this.window.reset();
    this.cells = 0;
  }
}

/**
 * A wire logit this far below another class logit keeps the cell's wire probability below 0.5
 * whatever the rounding: p_wire <= 1 / (1 + e^0.001) = 0.49975 (wireCandidates).
 */
const WIRE_MARGIN = 1e-3;

/**
 * What textureGain reads of the corrected class probabilities: it counts the cells whose wire
 * probability is >= 0.5. Into `wireProb`: the exact wire probability (probabilitiesFromLogits'
 * bits, by cellSoftmax into `probs`) of every cell whose wire logit is within WIRE_MARGIN of the
 * largest class logit, 0 for the others (their probability is below 0.4998, so the count is the
 * same). Most cells are background and skip four exponentials.
 */
export function wireCandidates(corrected: Float32Array, wireProb: Float32Array, probs: Float32Array): void {
  const k = DETECTOR_OUTPUTS_PER_CELL;
  const classes = NUM_DETECTION_CLASSES; // one read of the re-exported name (DetectorRuntime.ts CLASSES)
  for (let c = 0; c < wireProb.length; c++) {
    const o = c * k;
    const other = Math.max(corrected[o]!, corrected[o + 2]!, corrected[o + 3]!);
    if (corrected[o + 1]! < other - WIRE_MARGIN) {
      wireProb[c] = 0;
      continue;
    }
    cellSoftmax(corrected, c, probs);
    wireProb[c] = probs[c * classes + 1]!;
  }
}
