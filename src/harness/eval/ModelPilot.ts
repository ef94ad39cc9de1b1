/**
 * Pilots for the closed-loop evaluation: the student alone (argmax of pi_theta), the student with
 * its harness (argmax of pi_corrected = softmax(z + delta); lambda adapts with r during the
 * flight from its trained value, SPEC "Correction Generator"), and the privileged expert as a
 * reference row. The harness sees the backward |ds/dt| of the flight (StateHistory), as in
 * training.
 */
import { expertAction } from "../data/ExpertPilot";
import type { DroneEnvironment } from "../data/DroneEnvironment";
import { LambdaSchedule } from "../correction/LambdaSchedule";
import { LAMBDA_INITIAL } from "../correction/constants";
import type { HarnessNet } from "../models/HarnessNet";
import { STATE_DIM } from "../models/stateVector";
import type { Student } from "../models/Student";
import { decideFrame, newFrameDecision } from "../runtime/HarnessedPolicy";
import { StateHistory } from "../runtime/StateHistory";
import type { Pilot } from "./flyClosedLoop";

export class ExpertReferencePilot implements Pilot {
  readonly needsImage = false;
  reset(): void {}
  act(_rgb: Uint8Array, _state: Float32Array, env: DroneEnvironment): number {
    return expertAction(env.expertObservation());
  }
}

export class ModelPilot implements Pilot {
  readonly needsImage = true;
  private readonly history = new StateHistory();
  private readonly rates = new Float32Array(STATE_DIM);
  private decision = newFrameDecision(1);
  private lambda: LambdaSchedule;
  /** max|delta| of every decision of the last flight. */
  readonly maxAbsDelta: number[] = [];

  constructor(
    private readonly student: Student,
    private readonly harness: HarnessNet | undefined,
    lambda0: number,
  ) {
    // Without a harness lambda is unused; keep a valid schedule value.
    this.lambda0 = harness === undefined ? LAMBDA_INITIAL : lambda0;
    this.lambda = new LambdaSchedule({ initial: this.lambda0 });
  }

  private readonly lambda0: number;

  reset(): void {
    this.history.reset();
    this.lambda = new LambdaSchedule({ initial: this.lambda0 });
    this.maxAbsDelta.length = 0;
  }

  act(rgb: Uint8Array, state: Float32Array, env: DroneEnvironment): number {
    const cells = (env.width / 8) * (env.height / 8);
    if (this.decision.cellLogits.length !== cells * 4) this.decision = newFrameDecision(cells);
    this.history.push(state);
    this.history.rates(env.controlPeriod_s, this.rates);
    const d = decideFrame(this.student, this.harness, this.lambda.value, { rgb, width: env.width, height: env.height, state, rates: this.rates }, this.decision);
    if (this.harness !== undefined) {
      this.lambda.update(d.risk);
      this.maxAbsDelta.push(d.maxAbsDelta);
    }
    let best = 0;
    let bestV = -Infinity;
    for (let i = 0; i < d.actionLogits.length; i++) {
      const v = d.actionLogits[i]! + d.actionDelta[i]!;
      if (v > bestV) {
        bestV = v;
        best = i;
      }
    }
    return best;
  }
}
