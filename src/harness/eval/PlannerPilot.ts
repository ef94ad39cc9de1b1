/**
 * The planner rows of `eval` (issue 12 item 6): the local planner (src/control/LocalPlanner.ts)
 * flying on a per-cell near-threat grid from one of three sources, same seeds for each:
 *  - "oracle": the simulator's near-threat cells (visible obstacle pixels within the threat
 *    horizon, CellLabels.nearThreatCells) -- what the planner can do with perfect perception;
 *  - a detector's near-threat sigmoid (teacher or student size; models/pipeline/).
 * Goal bearing, distance and altitude difference come from DroneEnvironment.navigation().
 */
import * as tf from "@tensorflow/tfjs";
import { LocalPlanner, type PlannerOptions } from "../../control/LocalPlanner";
import { NUM_ACTIONS } from "../actions";
import { makeNavigation, type DroneEnvironment } from "../data/DroneEnvironment";
import { imageInputFromRgb8 } from "../models/imageInput";
import { THREAT_CHANNEL, type Teacher } from "../models/Teacher";
import { nearThreatCells } from "./CellLabels";
import type { FrameTruth, Pilot } from "./flyClosedLoop";

const CELL_PX = 8;

/** Where the threat grid comes from. */
export type ThreatSource =
  | { type: "oracle" }
  | { type: "detector"; detector: Teacher };

export class PlannerPilot implements Pilot {
  readonly needsImage: boolean;
  readonly needsTruth: boolean;
  private readonly planner: LocalPlanner;
  private readonly nav = makeNavigation();
  private readonly logits = new Float32Array(NUM_ACTIONS);
  private threat = new Float32Array(0);
  private near = new Uint8Array(0);
  private input = new Float32Array(0);
  private grey = new Float32Array(0);

  constructor(
    private readonly source: ThreatSource,
    options: Partial<PlannerOptions> = {},
  ) {
    this.planner = new LocalPlanner(options);
    this.needsTruth = source.type === "oracle";
    this.needsImage = source.type !== "oracle";
    if (source.type === "detector" && source.detector.outputChannels <= THREAT_CHANNEL) {
      throw new RangeError(`the detector has ${source.detector.outputChannels} output channels, expected ${THREAT_CHANNEL + 1} (a near-threat logit: train it with drone-harness fit)`);
    }
  }

  reset(): void {}

  /** The threat grid of the last decision (rows*cols). */
  get lastThreat(): Float32Array {
    return this.threat;
  }

  act(rgb: Uint8Array, _state: Float32Array, env: DroneEnvironment, truth?: FrameTruth): number {
    const rows = env.height / CELL_PX;
    const cols = env.width / CELL_PX;
    if (this.threat.length !== rows * cols) {
      this.threat = new Float32Array(rows * cols);
      this.near = new Uint8Array(rows * cols);
    }
    env.navigation(this.nav);
    switch (this.source.type) {
      case "oracle": {
        if (truth === undefined) throw new Error("the oracle planner needs the frame's ground truth (flyClosedLoop renders it when needsTruth)");
        nearThreatCells(truth.visibleMask, truth.depth, { width: env.width, height: env.height, cell_px: CELL_PX }, this.nav.forwardSpeed_m_s, undefined, this.near);
        for (let i = 0; i < this.near.length; i++) this.threat[i] = this.near[i] as number;
        break;
      }
      case "detector": {
        const detector = this.source.detector;
        const n = env.width * env.height;
        if (this.input.length !== 4 * n) {
          this.input = new Float32Array(4 * n);
          this.grey = new Float32Array(n);
        }
        imageInputFromRgb8(rgb, env.width, env.height, this.input, this.grey);
        const p = tf.tidy(() => {
          const img = tf.tensor4d(this.input, [1, env.height, env.width, 4]);
          return tf.sigmoid(tf.slice(detector.forward(img), [0, 0, 0, THREAT_CHANNEL], [1, -1, -1, 1])).dataSync<"float32">();
        });
        this.threat.set(p);
        break;
      }
    }
    this.planner.score(
      {
        threat: this.threat,
        rows,
        cols,
        width: env.width,
        height: env.height,
        altitude_m: this.nav.altitude_m,
        forwardSpeed_m_s: this.nav.forwardSpeed_m_s,
        goalBearing_rad: this.nav.goalBearing_rad,
        goalDistance_m: this.nav.goalDistance_m,
        goalDz_m: this.nav.goalDz_m,
        bodyPitch_rad: this.nav.pitch_rad,
      },
      this.logits,
    );
    let best = 0;
    for (let a = 1; a < NUM_ACTIONS; a++) if ((this.logits[a] as number) > (this.logits[best] as number)) best = a;
    return best;
  }
}
