/**
 * The controller's planner mode (issue 12), one decision per harness/policy message: the
 * near-threat cells (threat_probs) and the navigation state (attitude, fix, velocity, goal) ->
 * the local planner's scores as the Controller's action logits; hover (no logits) with the reason
 * when it cannot plan. The reason and the last choice go to the controller's /diagnostics.
 */
import type { Controller } from "../../../src/control/Controller";
import { type LocalPlanner, argmaxAction, plannerInput } from "../../../src/control/LocalPlanner";
import { makeNavigation, type Navigation } from "../../../src/control/navigation";
import type { NavigationState } from "../../../src/control/NavigationState";
import { ACTIONS, NUM_ACTIONS } from "../../../src/harness/actions";
import type { InputHealth } from "../ros/InputHealth";
import type { KeyValue } from "../ros/NodeDiagnostics";
import type { StudentOutputMsg } from "./studentOutputMsg";

export class PlannerDecision {
  private readonly nav: Navigation = makeNavigation();
  private readonly logits = new Float32Array(NUM_ACTIONS);
  private readonly noLogits = new Float32Array(0);
  /** The planner's last choice, or why it hovered. */
  lastAction = "none";
  /** "ok", or why the navigation state cannot be read. */
  private navProblem = "no frame yet";

  /** `topic`: the policy topic, where a message without threat cells is counted. */
  constructor(
    private readonly planner: LocalPlanner,
    private readonly navigation: NavigationState,
    private readonly health: InputHealth,
    private readonly topic: string,
  ) {}

  /** Threat cells + navigation -> the planner's logits into `controller` (hover with the reason when it cannot plan). */
  decide(msg: StudentOutputMsg, nowNs: bigint, controller: Controller): void {
    if (msg.threat_probs.length === 0) {
      this.health.drop(this.topic, "bad_content", "no threat_probs: the perception node runs detector:=policy; set the controller's mode:=policy, or run detector:=pipeline");
      controller.setLogits(this.noLogits, nowNs);
      return;
    }
    const read = this.navigation.read(nowNs, this.nav);
    if (!read.ok) {
      this.navProblem = read.reason;
      controller.setLogits(this.noLogits, nowNs);
      this.lastAction = "hover (no navigation)";
      return;
    }
    this.navProblem = "ok";
    const threat = msg.threat_probs instanceof Float32Array ? msg.threat_probs : Float32Array.from(msg.threat_probs);
    this.planner.score(plannerInput({ threat, rows: msg.grid_rows, cols: msg.grid_cols, width: msg.image_width, height: msg.image_height }, this.nav), this.logits);
    controller.setLogits(this.logits, nowNs);
    this.lastAction = ACTIONS[argmaxAction(this.logits)] ?? "?";
  }

  /** Navigation, goal and the planner's view of them, for /diagnostics. */
  keyValues(): KeyValue[] {
    const { navigation, nav } = this;
    const goal = navigation.goal;
    return [
      { key: "navigation", value: this.navProblem },
      { key: "goal", value: goal === undefined ? "none" : `${goal.latitude.toFixed(7)}, ${goal.longitude.toFixed(7)}, ${goal.altitude.toFixed(2)} m` },
      { key: "goal_distance_m", value: nav.goalDistance_m.toFixed(2) },
      { key: "goal_bearing_rad", value: nav.goalBearing_rad.toFixed(3) },
      { key: "altitude_m", value: nav.altitude_m.toFixed(2) },
    ];
  }
}
