/**
 * The controller's planner mode (issue 12), one decision per harness/policy message: the
 * near-threat cells (threat_probs) and the navigation state (attitude, fix, velocity, goal) ->
 * the local planner's scores as the Controller's action logits; hover (no logits) with the reason
 * when it cannot plan. The reason and the last choice go to the controller's /diagnostics.
 *
 * With a vertical commitment (src/control/VerticalCommitment.ts, the controller's
 * vertical_commit_level): a climb or descend chosen with the way ahead blocked, while the detector
 * saw wire within 2 s, is flown to the side of the wire its wire cells give. The evidence is the
 * detector's own (uncorrected) wire probabilities, from harness/student_output: observeUncorrected()
 * keeps the last few frames' wire cells by camera stamp, and decide() reads the frame of the policy
 * message's stamp (none kept: this frame adds no evidence, counted in /diagnostics). The turned
 * decision goes to the Controller as the planner's logits with the two vertical escapes swapped.
 *
 * With a final approach (src/control/arrival.ts, the planner's arrivalRadius_m, the controller's
 * arrival_radius_m): near the goal and far from its altitude, the vertical manoeuvre toward it goes
 * to the Controller (its logit swapped to the top) with the closing forward speed as a cap; the
 * controller's planner is guarded (the manoeuvre's own arc must be clear too).
 *
 * With a scan when stuck (src/control/stuckScan.ts, the controller's scan_when_stuck_s): once the drone
 * has come no more than 1 m closer to the goal than its best for that long, a hover decision goes to the
 * Controller as the episode's yaw with forward speed capped at 0 (a yaw in place), on the policy
 * message's stamp clock. With its climb (the controller's stuck_climb_m), once stuck the planner reads
 * the goal's altitude raised by that much until the drone is within stuck_climb_release_m of the goal.
 */
import { plannerArrival, type ArrivalDecision } from "../../../src/control/arrival";
import type { StuckScan } from "../../../src/control/stuckScan";
import type { Controller } from "../../../src/control/Controller";
import { type LocalPlanner, argmaxAction, plannerInput } from "../../../src/control/LocalPlanner";
import { makeNavigation, type Navigation } from "../../../src/control/navigation";
import type { NavigationState } from "../../../src/control/NavigationState";
import { countWireProbabilityCells, WIRE_EVIDENCE_LEVEL, type VerticalCommitment } from "../../../src/control/VerticalCommitment";
import { ACTIONS, NUM_ACTIONS } from "../../../src/harness/actions";
import type { InputHealth } from "../ros/InputHealth";
import type { KeyValue } from "../ros/NodeDiagnostics";
import { stampToNs } from "../ros/StampGuard";
import type { StudentOutputMsg } from "./studentOutputMsg";

/** Uncorrected frames kept for the policy messages that follow them (a policy message trails its student_output by one harness step). */
const UNCORRECTED_FRAMES_KEPT = 8;

/** One uncorrected frame's wire cells. */
type WireFrame = { stampNs: bigint; rows: number; cols: number; mask: Uint8Array; count: number };

export class PlannerDecision {
  private readonly nav: Navigation = makeNavigation();
  /** The planner's navigation input while the climb when stuck raises the goal's altitude. */
  private readonly climbNav: Navigation = makeNavigation();
  private readonly logits = new Float32Array(NUM_ACTIONS);
  private readonly noLogits = new Float32Array(0);
  /** The last uncorrected frames' wire cells, oldest first (with a commitment). */
  private readonly wireFrames: WireFrame[] = [];
  private readonly noWire = new Uint8Array(0);
  /** Policy messages with no uncorrected frame of their stamp (with a commitment). */
  private unmatched = 0;
  /** The final approach's last decision and the decisions it made. */
  private readonly arrivalOut: ArrivalDecision = { action: 0, forward_m_s: 0 };
  private arrivals = 0;
  /** The planner's last choice, or why it hovered. */
  lastAction = "none";
  /** "ok", or why the navigation state cannot be read. */
  private navProblem = "no frame yet";

  /** `topic`: the policy topic, where a message without threat cells is counted; `uncorrectedTopic`: where the commitment's evidence comes from. */
  constructor(
    private readonly planner: LocalPlanner,
    private readonly navigation: NavigationState,
    private readonly health: InputHealth,
    private readonly topic: string,
    private readonly commitment?: VerticalCommitment,
    private readonly uncorrectedTopic = "harness/student_output",
    private readonly scan?: StuckScan,
  ) {}

  /** A new flight (deactivation, a stamp that went back): the commitment's evidence and side are forgotten. */
  reset(): void {
    this.commitment?.reset();
    this.scan?.reset();
    this.wireFrames.length = 0;
  }

  /** The vertical commitment's evidence: one uncorrected harness/student_output frame's wire cells (ignored without a commitment). */
  observeUncorrected(msg: StudentOutputMsg): void {
    if (this.commitment === undefined) return;
    const wire = msg.class_names.indexOf("wire");
    if (wire < 0) {
      this.health.drop(this.uncorrectedTopic, "bad_content", `class_names [${msg.class_names.join(", ")}] has no "wire": the vertical commitment reads the wire class`);
      return;
    }
    if (msg.corrected) {
      this.health.drop(this.uncorrectedTopic, "bad_content", "corrected = true: the vertical commitment's evidence is the detector's own (uncorrected) output");
      return;
    }
    const cells = msg.grid_rows * msg.grid_cols;
    const frame = this.wireFrames.length >= UNCORRECTED_FRAMES_KEPT ? this.wireFrames.shift()! : { stampNs: 0n, rows: 0, cols: 0, mask: new Uint8Array(0), count: 0 };
    if (frame.mask.length !== cells) frame.mask = new Uint8Array(cells);
    frame.count = countWireProbabilityCells(msg.cell_probs, msg.class_names.length, wire, WIRE_EVIDENCE_LEVEL, frame.mask);
    frame.stampNs = stampToNs(msg.header.stamp);
    frame.rows = msg.grid_rows;
    frame.cols = msg.grid_cols;
    this.wireFrames.push(frame);
  }

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
    const time_s = Number(stampToNs(msg.header.stamp)) / 1e9;
    const plannerNav = this.scan === undefined ? this.nav : this.scan.plannerNav(this.nav, time_s, this.climbNav);
    this.planner.score(plannerInput({ threat, rows: msg.grid_rows, cols: msg.grid_cols, width: msg.image_width, height: msg.image_height }, plannerNav), this.logits);
    const chosen = argmaxAction(this.logits);
    let flown = this.commitment === undefined ? chosen : this.commit(chosen, msg);
    const arrival = plannerArrival(this.planner, this.nav, this.arrivalOut);
    if (arrival !== undefined) {
      flown = arrival.action;
      this.arrivals++;
    }
    if (this.scan !== undefined) flown = this.scan.decide(flown, Math.hypot(this.nav.goalDistance_m, this.nav.goalDz_m), time_s, this.planner);
    if (flown !== chosen) [this.logits[chosen], this.logits[flown]] = [this.logits[flown]!, this.logits[chosen]!];
    controller.setLogits(this.logits, nowNs, this.scan?.scanning === true ? 0 : arrival?.forward_m_s);
    this.lastAction = ACTIONS[flown] ?? "?";
  }

  /** The vertical commitment on the uncorrected frame of the message's stamp (see the file's comment). */
  private commit(chosen: number, msg: StudentOutputMsg): number {
    const commitment = this.commitment!;
    const stampNs = stampToNs(msg.header.stamp);
    const frame = this.wireFrames.find((f) => f.stampNs === stampNs && f.rows === msg.grid_rows && f.cols === msg.grid_cols);
    if (frame === undefined) this.unmatched++;
    const mask = frame?.mask ?? this.noWire;
    return commitment.decide(chosen, mask, frame?.count ?? 0, Number(stampNs) / 1e9, this.planner, this.nav);
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
      ...this.commitmentValues(),
      ...(this.scan === undefined ? [] : [{ key: "scan_when_stuck", value: `after ${this.scan.after_s} s, ${this.scan.counts.decisions} decisions in ${this.scan.counts.episodes} episodes` }]),
      ...(this.scan?.climb === undefined ? [] : [{ key: "stuck_climb", value: `${this.scan.climb.climb_m} m over the goal until ${this.scan.climb.release_m} m from it, ${this.scan.counts.climbs} climbs, ${this.scan.climbingNow ? "climbing" : "not climbing"}` }]),
      ...(this.planner.options.arrivalRadius_m > 0 ? [{ key: "final_approach", value: `radius ${this.planner.options.arrivalRadius_m} m${this.planner.options.arrivalGuarded ? ", guarded" : ""}, ${this.arrivals} decisions` }] : []),
    ];
  }

  private commitmentValues(): KeyValue[] {
    const c = this.commitment;
    if (c === undefined) return [];
    const n = c.counts;
    return [
      { key: "vertical_commit", value: `level ${c.options.level}, ${c.options.cells} wire cells, side ${c.options.side ?? "held"}, stall bound ${c.options.stall_s === undefined ? "none" : `${c.options.stall_s} s`}` },
      { key: "vertical_commit_sides", value: `${n.commitments} (by the wire cells ${n.byWireCells}), turned ${n.overridden}, left after a stall ${n.released}` },
      { key: "vertical_commit_evidence", value: c.event.evidence ? "open" : "closed" },
      { key: "vertical_commit_unmatched_frames", value: String(this.unmatched) },
    ];
  }
}
