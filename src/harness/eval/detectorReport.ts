/**
 * The detector measures of issue 12 over recorded frames, from per-cell probabilities:
 *  - `visible`: thin-obstacle AP against the visible-only labels (a pixel counts where the
 *    structure changes it by more than the sensor noise; sim/Renderer.ts visibleMask), all frames;
 *  - `approach`: the same on approach frames only (the expert has an obstacle in its corridor
 *    within its lookahead, FrameSample.threat: the last ~2.5 s before contact);
 *  - `allPixels`: the old labels (every pixel a centre line crosses), all frames, kept as a
 *    second column for comparison with earlier results;
 *  - `threat`: AP of the near-threat probability against the near-threat cells;
 *  - optionally (`bootstrap` resamples > 0), 95 % intervals of the wire AP, all frames and
 *    approach, by resampling flight seeds (ClusteredAp.ts): a 20-seed AP moves by several
 *    hundredths from one set of seeds to another, and the interval says by how much.
 * Pure: probabilities in, numbers out.
 */
import { NUM_DETECTION_CLASSES } from "../actions";
import type { FrameDataset } from "../data/FrameDataset";
import { averagePrecision } from "./AveragePrecision";
import { ClusteredAp, type ApInterval } from "./ClusteredAp";
import { cellLabelsFromMask } from "./CellLabels";
import { ThinObstacleAp, type ThinObstacleApReport } from "./ThinObstacleAp";

export type DetectorReport = {
  visible: ThinObstacleApReport;
  approach: ThinObstacleApReport;
  allPixels: ThinObstacleApReport;
  /** NaN when the detector has no threat output or no frame has a near cell. */
  threat: number;
  frames: number;
  approachFrames: number;
  /** Seed-bootstrap 95 % intervals of the visible-label wire AP, when asked for (DetectorReportOptions.bootstrap). */
  wireInterval?: { visible: ApInterval; approach: ApInterval };
};

export type DetectorReportOptions = {
  /** Seed-bootstrap resamples for the wire AP intervals; 0 (default): none. */
  bootstrap?: number;
};

const WIRE = 1;

export class DetectorReportBuilder {
  private readonly visible = new ThinObstacleAp();
  private readonly approach = new ThinObstacleAp();
  private readonly allPixels = new ThinObstacleAp();
  private threatScores: number[] = [];
  private threatLabels: number[] = [];
  private frames = 0;
  private approachFrames = 0;
  private readonly clustered: { visible: ClusteredAp; approach: ClusteredAp } | undefined;

  constructor(
    private readonly dataset: FrameDataset,
    private readonly options: DetectorReportOptions = {},
  ) {
    const b = options.bootstrap ?? 0;
    if (!Number.isInteger(b) || b < 0) throw new RangeError(`bootstrap=${b}, expected an integer >= 0`);
    this.clustered = b > 0 ? { visible: new ClusteredAp(), approach: new ClusteredAp() } : undefined;
  }

  /**
   * Adds frame `index`: `classProbs` cell-major softmax probabilities (4 per cell), `threatProbs`
   * one per cell or undefined.
   */
  add(index: number, classProbs: ArrayLike<number>, threatProbs: ArrayLike<number> | undefined): void {
    const f = this.dataset.frames[index];
    if (f === undefined) throw new RangeError(`frame index=${index}, expected [0, ${this.dataset.frames.length - 1}]`);
    if (threatProbs !== undefined && threatProbs.length * NUM_DETECTION_CLASSES !== classProbs.length) {
      throw new RangeError(`threatProbs.length=${threatProbs.length}, expected ${classProbs.length / NUM_DETECTION_CLASSES} (one per cell)`);
    }
    const grid = this.dataset.grid;
    const visibleLabels = cellLabelsFromMask(f.visibleMask ?? f.mask, grid);
    const allLabels = cellLabelsFromMask(f.mask, grid);
    if (classProbs.length !== visibleLabels.length) throw new RangeError(`classProbs.length=${classProbs.length}, expected ${visibleLabels.length} (${NUM_DETECTION_CLASSES} per cell)`);
    this.visible.add(classProbs, visibleLabels);
    this.allPixels.add(classProbs, allLabels);
    this.frames++;
    if (f.threat === true) {
      this.approach.add(classProbs, visibleLabels);
      this.approachFrames++;
    }
    if (this.clustered !== undefined) {
      for (let o = WIRE; o < classProbs.length; o += NUM_DETECTION_CLASSES) {
        this.clustered.visible.push(classProbs[o]!, visibleLabels[o]!, f.seed);
        if (f.threat === true) this.clustered.approach.push(classProbs[o]!, visibleLabels[o]!, f.seed);
      }
    }
    if (threatProbs !== undefined && f.near !== undefined) {
      for (let c = 0; c < threatProbs.length; c++) {
        this.threatScores.push(threatProbs[c]!);
        this.threatLabels.push(f.near[c]!);
      }
    }
  }

  report(): DetectorReport {
    const hasPositive = this.threatLabels.some((l) => l === 1);
    return {
      visible: this.visible.report(),
      approach: this.approach.report(),
      allPixels: this.allPixels.report(),
      threat: this.threatScores.length > 0 && hasPositive ? averagePrecision({ scores: this.threatScores, labels: this.threatLabels }) : NaN,
      frames: this.frames,
      approachFrames: this.approachFrames,
      ...(this.clustered !== undefined
        ? { wireInterval: { visible: this.clustered.visible.interval(this.options.bootstrap ?? 0), approach: this.clustered.approach.interval(this.options.bootstrap ?? 0) } }
        : {}),
    };
  }
}
