/**
 * One closed-loop flight seen as a rollout environment (Rollout.ts): the observation is the
 * camera frame, the normalised sensor state and the backward |ds/dt| (StateHistory, as the
 * harness gets it in flight), cached until the next step; the reward is the environment's own
 * (EnvironmentReward.ts). Shared by co-evolution and the transfer sample collection.
 */
import type { DroneEnvironment } from "../data/DroneEnvironment";
import { STATE_DIM } from "../models/stateVector";
import { environmentReward } from "./EnvironmentReward";
import { newFrameDecision, type FrameDecision } from "../runtime/HarnessedPolicy";
import { StateHistory } from "../runtime/StateHistory";
import type { RolloutEnvironment } from "./Rollout";

export type FlightObs = { rgb: Uint8Array; state: Float32Array; rates: Float32Array; decision: FrameDecision };

export class FlightRollouts implements RolloutEnvironment<FlightObs> {
  private cached: FlightObs | undefined;
  private readonly history = new StateHistory();
  private readonly cells: number;
  event: ReturnType<DroneEnvironment["step"]> = { type: "running" };

  constructor(readonly env: DroneEnvironment) {
    // one decision cell per 8x8 px (the student's grid)
    this.cells = (env.width / 8) * (env.height / 8);
  }

  observe(): FlightObs {
    if (this.cached !== undefined) return this.cached;
    const rgb = new Uint8Array(this.env.width * this.env.height * 3);
    this.env.render(rgb);
    const state = new Float32Array(STATE_DIM);
    this.env.sensorState(state);
    this.history.push(state);
    const rates = this.history.rates(this.env.controlPeriod_s, new Float32Array(STATE_DIM));
    this.cached = { rgb, state, rates, decision: newFrameDecision(this.cells) };
    return this.cached;
  }

  stateFeatures(obs: FlightObs, out: Float32Array): void {
    out.set(obs.state);
  }

  step(action: number): { reward: number; done: boolean } {
    this.cached = undefined;
    this.event = this.env.step(action);
    return environmentReward({ type: this.event.type });
  }
}
