/**
 * The planner rows of `eval` (issue 12 item 6): the local planner (src/control/LocalPlanner.ts)
 * flying on a per-cell near-threat grid from one of three sources, same seeds for each:
 *  - "oracle": the simulator's near-threat cells (visible obstacle pixels within the threat
 *    horizon, CellLabels.nearThreatCells) -- what the planner can do with perfect perception;
 *  - a detector's near-threat sigmoid (teacher or student size; models/pipeline/).
 * Goal bearing, distance and altitude difference come from DroneEnvironment.navigation().
 */
import { LocalPlanner, argmaxAction, plannerInput, type PlannerOptions } from "../../control/LocalPlanner";
import { NUM_ACTIONS } from "../actions";
import { makeNavigation, type DroneEnvironment } from "../data/DroneEnvironment";
import type { Teacher } from "../models/Teacher";
import { DETECTOR_CELL_PX, DetectorRuntime } from "../runtime/DetectorRuntime";
import { SpatialHarnessRuntime, type SpatialHarnessOptions, type SpatialStepInfo } from "../runtime/SpatialHarnessRuntime";
import type { SpatialHarness, SpatialHarnessWeights } from "../spatial/SpatialHarness";
import { nearThreatCells } from "./CellLabels";
import type { FrameTruth, Pilot } from "./flyClosedLoop";

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
      harness?: { model: SpatialHarness | SpatialHarnessWeights; options?: Partial<SpatialHarnessOptions>; apply: boolean };
    };

export class PlannerPilot implements Pilot {
  readonly needsImage: boolean;
  readonly needsTruth: boolean;
  private readonly planner: LocalPlanner;
  private readonly nav = makeNavigation();
  private readonly logits = new Float32Array(NUM_ACTIONS);
  private threat: Float32Array = new Float32Array(0);
  private near = new Uint8Array(0);
  private runtime: DetectorRuntime | undefined;
  private harness: SpatialHarnessRuntime | undefined;
  private lastHarness: SpatialStepInfo | undefined;

  constructor(
    private readonly source: ThreatSource,
    options: Partial<PlannerOptions> = {},
  ) {
    this.planner = new LocalPlanner(options);
    this.needsTruth = source.type === "oracle";
    this.needsImage = source.type !== "oracle";
    // Checks the detector's outputs now rather than at the first frame.
    if (source.type === "detector") this.runtime = new DetectorRuntime(source.detector, DETECTOR_CELL_PX, DETECTOR_CELL_PX);
  }

  reset(): void {
    this.harness?.reset();
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

  /** The threat grid of the last decision (rows*cols). */
  get lastThreat(): Float32Array {
    return this.threat;
  }

  /** The planner's logits of the last decision (ACTIONS order). */
  get lastLogits(): Float32Array {
    return this.logits;
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
        this.runtime.infer(rgb);
        this.threat = this.runtime.threat;
        const h = this.source.harness;
        if (h !== undefined) {
          if (this.harness === undefined || this.harness.width !== env.width || this.harness.height !== env.height) {
            this.harness = new SpatialHarnessRuntime(h.model, env.width, env.height, h.options);
          }
          this.lastHarness = this.harness.step(this.runtime.logits, rgb, this.nav, env.time_s);
          if (h.apply) {
            this.threat = this.harness.threat;
            // The texture rule (seed 4.2) strengthens the Sobel channel of the next frame.
            this.runtime.sobelGain = this.lastHarness.textureGain;
          }
        }
        break;
      }
    }
    this.planner.score(plannerInput({ threat: this.threat, rows, cols, width: env.width, height: env.height }, this.nav), this.logits);
    return argmaxAction(this.logits);
  }
}
