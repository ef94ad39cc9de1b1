/**
 * Scan when stuck (PlannerOptions.scanWhenStuck_s, thirty-sixth session; eval only, off by default).
 * In the woods the local planner's minimum is often hover: every window of the 90 deg camera holds
 * branches, and the drone hovers until the flight times out (trees_only's val seeds with the nodes'
 * planner: 31 of 41 nominal timeouts hovered >= 80 % of their last 20 s; the planner on
 * ground-truth cells times out in 18 % of them too; docs/results/flight-patterns-trees-val-s36.txt).
 * A pilot that cannot see behind it looks around: once the drone has come no more than
 * STUCK_PROGRESS_M closer to the goal (3-D range) than its best for `after_s` seconds, a hover
 * decision is replaced by a yaw flown in place (no forward speed, so nothing is swept that hover
 * would not sweep), toward the side whose yaw arc is less blocked, held for the whole episode so the
 * scan does not dither; the planner decides again on every frame of the new view. The episode ends
 * when the drone beats its best range by STUCK_PROGRESS_M. Like the final approach (arrival.ts), the
 * planner's scores are left alone; the pilot turns its decision.
 */
import { ACTIONS } from "./actions";

const ACTION_HOVER = ACTIONS.indexOf("hover");
const ACTION_YAW_LEFT = ACTIONS.indexOf("yaw_left");
const ACTION_YAW_RIGHT = ACTIONS.indexOf("yaw_right");

/** Progress toward the goal (m, 3-D range) that counts as not stuck (and ends a scan episode). */
export const STUCK_PROGRESS_M = 1;

export class StuckScan {
  private best_m = Infinity;
  private bestAt_s = 0;
  private yaw = -1;
  private last = false;
  /** Decisions turned into a scan, and scan episodes begun, over every flight since construction (reset() keeps them). */
  readonly counts = { decisions: 0, episodes: 0 };

  constructor(readonly after_s: number) {
    if (!(Number.isFinite(after_s) && after_s > 0)) throw new RangeError(`scan when stuck after_s=${after_s}, expected a positive number of seconds`);
  }

  /** A new flight: no best range, no episode. */
  reset(): void {
    this.best_m = Infinity;
    this.bestAt_s = 0;
    this.yaw = -1;
    this.last = false;
  }

  /** Whether the last decide() turned its decision into a scan (the pilot flies it with no forward speed). */
  get scanning(): boolean {
    return this.last;
  }

  /**
   * The action to fly for the planner's `action` at `time_s`, with the goal `range_m` away (3-D):
   * `action` itself, or the episode's yaw when the drone is stuck and `action` is hover. `arcs` gives
   * the planner's blocked value of an action's arc (LocalPlanner.blockedOf, after its last score()).
   */
  decide(action: number, range_m: number, time_s: number, arcs: { blockedOf(action: number): number }): number {
    if (!Number.isFinite(range_m) || range_m < 0) throw new RangeError(`scan when stuck: goal range ${range_m} m, expected a finite non-negative number`);
    this.last = false;
    if (range_m < this.best_m - STUCK_PROGRESS_M || this.best_m === Infinity) {
      this.best_m = range_m;
      this.bestAt_s = time_s;
      this.yaw = -1;
      return action;
    }
    if (action !== ACTION_HOVER || time_s - this.bestAt_s < this.after_s) return action;
    if (this.yaw < 0) {
      this.yaw = arcs.blockedOf(ACTION_YAW_LEFT) <= arcs.blockedOf(ACTION_YAW_RIGHT) ? ACTION_YAW_LEFT : ACTION_YAW_RIGHT;
      this.counts.episodes++;
    }
    this.counts.decisions++;
    this.last = true;
    return this.yaw;
  }
}
