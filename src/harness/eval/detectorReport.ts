/**
 * The detector measures of issue 12 over recorded frames, from per-cell probabilities:
 *  - `visible`: thin-obstacle AP against the visible-only labels (a pixel counts where the
 *    structure changes it by more than the sensor noise; sim/Renderer.ts visibleMask), all frames;
 *  - `approach`: the same on approach frames only (the expert has an obstacle in its corridor
 *    within its lookahead, FrameSample.threat: the last ~2.5 s before contact);
 *  - `allPixels`: the old labels (every pixel a centre line crosses), all frames, kept as a
 *    second column for comparison with earlier results;
 *  - `threat`: AP of the near-threat probability against the near-threat cells.
 * Pure: probabilities in, numbers out.
 */
import { NUM_DETECTION_CLASSES } from "../actions";
import type { FrameDataset } from "../data/FrameDataset";
import { averagePrecision } from "./AveragePrecision";
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
};

export class DetectorReportBuilder {
  private readonly visible = new ThinObstacleAp();
  private readonly approach = new ThinObstacleAp();
  private readonly allPixels = new ThinObstacleAp();
  private threatScores: number[] = [];
  private threatLabels: number[] = [];
  private frames = 0;
  private approachFrames = 0;

  constructor(private readonly dataset: FrameDataset) {}

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
    };
  }
}
