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
 *
 * With a detour (PlannerOptions.scanDetour_m, thirty-seventh session; eval only, off by default): a
 * scan alone finds a free direction, and then the goal's heading bonus turns the drone back into the
 * same clutter (40 of 51 scanned woods test flights still timed out, thirty-sixth session). So once,
 * during an episode, the way ahead (cruise's arc) is more likely free than blocked, the pilot keeps
 * that direction: a sub-goal `detour_m` ahead on the current heading replaces the goal in the
 * planner's navigation input (plannerNav) until the drone is within DETOUR_REACHED_M of it, or
 * `after_s` have passed, or it beats its best range to the real goal. The sub-goal is held in a frame
 * fixed to the goal (the drone's position relative to the goal follows from the navigation state's
 * heading, bearing and distance), so no other position source is needed. The scan's side is then
 * kept for the flight (a wall-following turn, as in the bug algorithms), and a detour's end gives the
 * real goal `after_s` seconds again before the next scan.
 */
import { ACTIONS } from "./actions";
import type { Navigation } from "./navigation";

const ACTION_HOVER = ACTIONS.indexOf("hover");
const ACTION_YAW_LEFT = ACTIONS.indexOf("yaw_left");
const ACTION_YAW_RIGHT = ACTIONS.indexOf("yaw_right");
const ACTION_CRUISE = ACTIONS.indexOf("cruise");

/** Progress toward the goal (m, 3-D range) that counts as not stuck (and ends a scan episode). */
export const STUCK_PROGRESS_M = 1;
/** A detour ends within this horizontal distance of its sub-goal, m. */
export const DETOUR_REACHED_M = 1.5;
/** A detour begins when cruise's arc is blocked less than this (more likely free than blocked). */
export const DETOUR_FREE_BELOW = 0.5;

export class StuckScan {
  private best_m = Infinity;
  private bestAt_s = 0;
  private yaw = -1;
  private last = false;
  /** The flight's scan side with a detour (-1 before the first episode). */
  private side = -1;
  /** The active detour's sub-goal, east and north of the goal (m), and its start; detourAt_s < 0 when none. */
  private readonly sub = { east_m: 0, north_m: 0 };
  private detourAt_s = -1;
  /** Decisions turned into a scan, scan episodes begun and detours begun, over every flight since construction (reset() keeps them). */
  readonly counts = { decisions: 0, episodes: 0, detours: 0 };

  /** `detour_m`: the detour's length (0: no detour, the scan alone). */
  constructor(
    readonly after_s: number,
    readonly detour_m = 0,
  ) {
    if (!(Number.isFinite(after_s) && after_s > 0)) throw new RangeError(`scan when stuck after_s=${after_s}, expected a positive number of seconds`);
    if (!(Number.isFinite(detour_m) && detour_m >= 0)) throw new RangeError(`scan when stuck detour_m=${detour_m}, expected a finite number of metres >= 0 (0 = no detour)`);
  }

  /** A new flight: no best range, no episode, no detour, no side. */
  reset(): void {
    this.best_m = Infinity;
    this.bestAt_s = 0;
    this.yaw = -1;
    this.last = false;
    this.side = -1;
    this.detourAt_s = -1;
  }

  /** Whether, at `time_s`, the drone has come no more than STUCK_PROGRESS_M closer to the goal than its best for after_s seconds. */
  stuckAt(time_s: number): boolean {
    return this.best_m !== Infinity && time_s - this.bestAt_s >= this.after_s;
  }

  /** Whether a detour's sub-goal stands in for the goal. */
  get detouring(): boolean {
    return this.detourAt_s >= 0;
  }

  /**
   * The navigation the planner scores at `time_s`: `nav` itself, or, while a detour is active, `nav`
   * with the goal's bearing and distance replaced by the sub-goal's (written into `out`). Ends the
   * detour when its sub-goal is reached or `after_s` have passed since it began.
   */
  plannerNav(nav: Readonly<Navigation>, time_s: number, out: Navigation): Readonly<Navigation> {
    if (this.detourAt_s < 0) return nav;
    const [east, north] = positionFromGoal(nav);
    const de = this.sub.east_m - east, dn = this.sub.north_m - north;
    const distance_m = Math.hypot(de, dn);
    if (distance_m < DETOUR_REACHED_M || time_s - this.detourAt_s >= this.after_s) {
      this.detourAt_s = -1;
      this.bestAt_s = time_s;
      return nav;
    }
    Object.assign(out, nav);
    const bearing = Math.atan2(dn, de) - nav.yaw_rad;
    out.goalBearing_rad = Math.atan2(Math.sin(bearing), Math.cos(bearing));
    out.goalDistance_m = distance_m;
    return out;
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
  decide(action: number, range_m: number, time_s: number, arcs: { blockedOf(action: number): number }, nav?: Readonly<Navigation>): number {
    if (!Number.isFinite(range_m) || range_m < 0) throw new RangeError(`scan when stuck: goal range ${range_m} m, expected a finite non-negative number`);
    this.last = false;
    if (range_m < this.best_m - STUCK_PROGRESS_M || this.best_m === Infinity) {
      this.best_m = range_m;
      this.bestAt_s = time_s;
      this.yaw = -1;
      this.detourAt_s = -1;
      return action;
    }
    if (this.yaw >= 0 && this.detour_m > 0 && arcs.blockedOf(ACTION_CRUISE) < DETOUR_FREE_BELOW) {
      if (nav === undefined) throw new Error("scan when stuck with a detour: decide() needs the navigation state");
      this.beginDetour(nav, time_s);
      return action;
    }
    if (action !== ACTION_HOVER || time_s - this.bestAt_s < this.after_s) return action;
    if (this.yaw < 0) {
      if (this.side < 0 || this.detour_m === 0) this.side = arcs.blockedOf(ACTION_YAW_LEFT) <= arcs.blockedOf(ACTION_YAW_RIGHT) ? ACTION_YAW_LEFT : ACTION_YAW_RIGHT;
      this.yaw = this.side;
      this.counts.episodes++;
    }
    this.counts.decisions++;
    this.last = true;
    return this.yaw;
  }

  /** A sub-goal detour_m ahead on the current heading; the episode ends (its side is kept). */
  private beginDetour(nav: Readonly<Navigation>, time_s: number): void {
    const [east, north] = positionFromGoal(nav);
    this.sub.east_m = east + this.detour_m * Math.cos(nav.yaw_rad);
    this.sub.north_m = north + this.detour_m * Math.sin(nav.yaw_rad);
    this.detourAt_s = time_s;
    this.yaw = -1;
    this.counts.detours++;
  }
}

/** The drone's horizontal position east and north of the goal (m), from the heading, the goal's bearing and its distance. */
function positionFromGoal(nav: Readonly<Navigation>): [number, number] {
  const toGoal = nav.yaw_rad + nav.goalBearing_rad;
  return [-nav.goalDistance_m * Math.cos(toGoal), -nav.goalDistance_m * Math.sin(toGoal)];
}
