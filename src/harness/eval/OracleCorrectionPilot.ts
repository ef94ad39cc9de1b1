/**
 * Upper bounds of the Harness's effect on flight, measured with privileged information no
 * harness has (src/harness/eval/correctionBound.ts). The student flies; the correction applied to
 * its action logits comes from an oracle instead of the harness network:
 *
 *  - "none": no correction (the student alone; the frame statistics are collected here).
 *  - "spec_oracle_risk": the SPEC's formula delta = -lambda r S |ds/dt| with everything a perfect
 *    harness could learn: r = 1 exactly when the privileged expert sees an obstacle in its
 *    corridor (ExpertPilot.threatInCorridor, 10 m ahead by default: earlier than any 3-step
 *    rollout) and 0 otherwise; S = S_gt, the finite-difference sensitivity of this student at this
 *    frame (the diagnostics head's training target); lambda = LAMBDA_MAX (the top of the
 *    schedule); |ds/dt| the backward rates the harness gets in flight (HarnessedPolicy). Then the
 *    SPEC clip ||delta||_2 <= DELTA_NORM_MAX.
 *  - "best_admissible": under the same oracle threat, the minimum-norm delta of the SPEC's sign
 *    that makes the expert's action the argmax (admissibleDelta.ts), applied when its norm is
 *    within the clip; otherwise no correction. No correction of the SPEC's form can do better at
 *    matching the expert frame by frame.
 *
 * Frame statistics (per pilot, reset by the caller): frames under an oracle threat, how many of
 * them the student's own argmax disagrees with the expert, how many of those a clipped delta could
 * flip, and the student's logit margin (top-1 minus the expert's action) on the disagreeing frames.
 */
import * as tf from "@tensorflow/tfjs";
import { NUM_ACTIONS } from "../actions";
import { DELTA_NORM_MAX, LAMBDA_MAX } from "../correction/constants";
import { correctionDelta, newCorrectionDelta } from "../correction/correctionDelta";
import type { DroneEnvironment } from "../data/DroneEnvironment";
import { expertAction, threatInCorridor } from "../data/ExpertPilot";
import { studentSgt } from "../diagnostics/finiteDifferenceSgt";
import { buildImageInput } from "../models/imageInput";
import { STATE_DIM } from "../models/stateVector";
import type { Student } from "../models/Student";
import { rgbTensor } from "../runtime/HarnessedPolicy";
import { StateHistory } from "../runtime/StateHistory";
import { minimalAdmissibleDelta } from "./admissibleDelta";
import type { Pilot } from "./flyClosedLoop";

export const ORACLE_MODES = ["none", "spec_oracle_risk", "best_admissible"] as const;
export type OracleMode = (typeof ORACLE_MODES)[number];

export type ThreatFrameStats = {
  /** Frames with an obstacle in the expert's corridor. */
  threatFrames: number;
  /** Of those, frames where the student's argmax differs from the expert's action. */
  disagreeFrames: number;
  /** Of those, frames where a delta of the SPEC's sign within the clip makes the expert's action win. */
  reachableFrames: number;
  /** Frames where the applied correction changed the argmax (any frame, threat or not). */
  flippedFrames: number;
  /** Student logit margin z_top1 - z_expert on every disagreeing frame. */
  margins: number[];
  /** ||delta||_2 (after the clip) on every threat frame. */
  deltaNorms: number[];
};

export function newThreatFrameStats(): ThreatFrameStats {
  return { threatFrames: 0, disagreeFrames: 0, reachableFrames: 0, flippedFrames: 0, margins: [], deltaNorms: [] };
}

function argmax(v: Float32Array, add?: Float32Array): number {
  let best = 0;
  let bestV = -Infinity;
  for (let i = 0; i < v.length; i++) {
    const x = v[i]! + (add === undefined ? 0 : add[i]!);
    if (x > bestV) {
      bestV = x;
      best = i;
    }
  }
  return best;
}

export class OracleCorrectionPilot implements Pilot {
  readonly needsImage = true;
  readonly stats: ThreatFrameStats = newThreatFrameStats();
  private readonly history = new StateHistory();
  private readonly rates = new Float32Array(STATE_DIM);
  private readonly logits = new Float32Array(NUM_ACTIONS);
  private readonly scratch = new Float32Array(NUM_ACTIONS);
  private readonly delta = newCorrectionDelta();

  constructor(
    private readonly student: Student,
    readonly mode: OracleMode,
  ) {}

  reset(): void {
    this.history.reset();
  }

  act(rgb: Uint8Array, state: Float32Array, env: DroneEnvironment): number {
    this.history.push(state);
    this.history.rates(env.controlPeriod_s, this.rates);
    const obs = env.expertObservation();
    const threat = threatInCorridor(obs) !== null;
    const wantS = this.mode === "spec_oracle_risk" && threat;
    const S = tf.tidy(() => {
      const image = buildImageInput(rgbTensor(rgb, env.width, env.height));
      this.logits.set(this.student.forward({ image, state: tf.tensor2d(state, [1, STATE_DIM]) }).actionLogits.dataSync());
      return wantS ? studentSgt(this.student, image, state) : undefined;
    });
    const own = argmax(this.logits);
    const expert = expertAction(obs);
    this.delta.action.fill(0);
    if (threat) {
      this.stats.threatFrames++;
      if (own !== expert) {
        this.stats.disagreeFrames++;
        this.stats.margins.push(this.logits[own]! - this.logits[expert]!);
        if (minimalAdmissibleDelta(this.logits, expert, this.scratch) <= DELTA_NORM_MAX) this.stats.reachableFrames++;
      }
      if (S !== undefined) {
        correctionDelta(S, this.rates, 1, LAMBDA_MAX, this.delta);
      } else if (this.mode === "best_admissible" && own !== expert) {
        if (minimalAdmissibleDelta(this.logits, expert, this.scratch) <= DELTA_NORM_MAX) this.delta.action.set(this.scratch);
      }
      let sq = 0;
      for (const d of this.delta.action) sq += d * d;
      this.stats.deltaNorms.push(Math.sqrt(sq));
    }
    const chosen = argmax(this.logits, this.delta.action);
    if (chosen !== own) this.stats.flippedFrames++;
    return chosen;
  }
}
