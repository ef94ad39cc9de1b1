/**
 * Scan when stuck (PlannerOptions.scanWhenStuck_s, thirty-sixth session; off by default, config/controller.yaml
 * flies it with the climb since the thirty-seventh session).
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
 *
 * With a climb (PlannerOptions.stuckClimb_m, thirty-seventh session; off by default, 8 m until 6 m in
 * config/controller.yaml): in the woods the student flags trees beyond the near-threat range as near
 * (of the cells it flags that are not near threats, a tree 12-40 m away in 64 %;
 * docs/results/woods-false-alarms-s37.txt), so every window
 * looks blocked, and a yaw alone finds no way through. A pilot in a wood climbs over it: once stuck,
 * the goal's altitude in the planner's navigation input is raised by `climb_m` (plannerNav) until the
 * drone is within `release_m` of the goal horizontally, where the final approach brings it down. The
 * planner flies the climb with its own scores (its altitude-goal bonus against the climb arc's threat,
 * its ceiling), so the climb is only taken where the planner sees it free.
 */
import { ACTIONS } from "./actions";
import type { Navigation } from "./navigation";

const ACTION_HOVER = ACTIONS.indexOf("hover");
const ACTION_YAW_LEFT = ACTIONS.indexOf("yaw_left");
const ACTION_YAW_RIGHT = ACTIONS.indexOf("yaw_right");

/** Progress toward the goal (m, 3-D range) that counts as not stuck (and ends a scan episode). */
export const STUCK_PROGRESS_M = 1;

/** The climb when stuck: how far over the goal's altitude (m), and the horizontal goal distance (m) within which it ends. */
export type StuckClimb = { climb_m: number; release_m: number };

export class StuckScan {
  private best_m = Infinity;
  private bestAt_s = 0;
  private yaw = -1;
  private last = false;
  /** Whether the goal's altitude is raised (a climb when stuck). */
  private climbing = false;
  /** Decisions turned into a scan, scan episodes begun, and climbs begun, over every flight since construction (reset() keeps them). */
  readonly counts = { decisions: 0, episodes: 0, climbs: 0 };

  /** `climb`: the climb when stuck (undefined: the scan alone). */
  constructor(
    readonly after_s: number,
    readonly climb?: Readonly<StuckClimb>,
  ) {
    if (!(Number.isFinite(after_s) && after_s > 0)) throw new RangeError(`scan when stuck after_s=${after_s}, expected a positive number of seconds`);
    if (climb !== undefined && !(Number.isFinite(climb.climb_m) && climb.climb_m > 0 && Number.isFinite(climb.release_m) && climb.release_m >= 0)) {
      throw new RangeError(`climb when stuck climb_m=${climb.climb_m}, release_m=${climb.release_m}: expected a climb > 0 m and a release distance >= 0 m`);
    }
  }

  /** A new flight: no best range, no episode, no climb. */
  reset(): void {
    this.best_m = Infinity;
    this.bestAt_s = 0;
    this.yaw = -1;
    this.last = false;
    this.climbing = false;
  }

  /** Whether, at `time_s`, the drone has come no more than STUCK_PROGRESS_M closer to the goal than its best for after_s seconds. */
  private stuckAt(time_s: number): boolean {
    return this.best_m !== Infinity && time_s - this.bestAt_s >= this.after_s;
  }

  /** Whether the last decide() turned its decision into a scan (the pilot flies it with no forward speed). */
  get scanning(): boolean {
    return this.last;
  }

  /** Whether the last plannerNav() raised the goal's altitude. */
  get climbingNow(): boolean {
    return this.climbing;
  }

  /**
   * The navigation the planner scores at `time_s`, before this frame's decide(): `nav` itself, or
   * with a climb, once stuck and until within release_m of the goal, `nav` with the goal's altitude
   * raised by climb_m (written into `out`).
   */
  plannerNav(nav: Readonly<Navigation>, time_s: number, out: Navigation): Readonly<Navigation> {
    const c = this.climb;
    if (c === undefined) return nav;
    if (!this.climbing && this.stuckAt(time_s) && nav.goalDistance_m > c.release_m) {
      this.climbing = true;
      this.counts.climbs++;
    }
    if (this.climbing && nav.goalDistance_m <= c.release_m) this.climbing = false;
    if (!this.climbing) return nav;
    Object.assign(out, nav);
    out.goalDz_m = nav.goalDz_m + c.climb_m;
    return out;
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
    if (action !== ACTION_HOVER || !this.stuckAt(time_s)) return action;
    if (this.yaw < 0) {
      this.yaw = arcs.blockedOf(ACTION_YAW_LEFT) <= arcs.blockedOf(ACTION_YAW_RIGHT) ? ACTION_YAW_LEFT : ACTION_YAW_RIGHT;
      this.counts.episodes++;
    }
    this.counts.decisions++;
    this.last = true;
    return this.yaw;
  }
}
