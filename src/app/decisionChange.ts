/**
 * Where the harness changed a decision (issue 13: "the report shows the frames where the
 * correction changed a decision"): for a camera frame of the ON arm, the local planner scores the
 * student's own near-threat cells (harness/student_output) and the corrected cells the controller
 * received (harness/policy) with the same navigation (the simulator's true state, as `eval` does);
 * when the two argmax manoeuvres differ, the correction changed the decision at that frame.
 */
import { LocalPlanner, argmaxAction, plannerInput, type PlannerOptions } from "../control/LocalPlanner";
import { makeNavigation } from "../control/navigation";
import { ACTIONS, NUM_ACTIONS } from "../harness/actions";
import { simNavigation } from "../harness/data/simEnvironment";
import type { Simulation } from "../../sim/Simulation";

type Cells = { threat_probs: ArrayLike<number>; grid_rows: number; grid_cols: number; image_width: number; image_height: number };

export type DecisionChange = { raw: string; corrected: string };

export class DecisionCheck {
  private readonly planner: LocalPlanner;
  private readonly nav = makeNavigation();
  private readonly logits = new Float32Array(NUM_ACTIONS);

  constructor(options: Partial<PlannerOptions> = {}) {
    this.planner = new LocalPlanner(options);
  }

  /** The two manoeuvres when they differ, else undefined (also when either message has no near-threat cells). */
  compare(student: Cells, policy: Cells, sim: Simulation): DecisionChange | undefined {
    const n = student.grid_rows * student.grid_cols;
    if (n === 0 || student.threat_probs.length !== n || policy.threat_probs.length !== n) return undefined;
    simNavigation(sim, this.nav);
    const decide = (c: Cells): number => {
      const threat = c.threat_probs instanceof Float32Array ? c.threat_probs : Float32Array.from(c.threat_probs);
      this.planner.score(plannerInput({ threat, rows: c.grid_rows, cols: c.grid_cols, width: c.image_width, height: c.image_height }, this.nav), this.logits);
      return argmaxAction(this.logits);
    };
    const a = decide(student);
    const b = decide(policy);
    return a === b ? undefined : { raw: ACTIONS[a] ?? String(a), corrected: ACTIONS[b] ?? String(b) };
  }
}
