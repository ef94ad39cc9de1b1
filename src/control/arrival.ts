/**
 * The final approach (PlannerOptions.arrivalRadius_m, thirty-fourth session; off by default). The
 * goal counts as reached inside a sphere (the simulator's: 3 m), but the local planner's climbs and
 * descends fly forward at the manoeuvre speed. A drone that arrives over the goal far above or below
 * it (in the urban family, after climbing over roofs) descends past it horizontally, turns back and
 * circles until the flight times out (docs/results/commit-hang-urban-val-120.txt: timeouts 1-6 m from
 * the goal, mostly yawing; urban val seed 10091 read step by step: 8-15 m above it for its last 35 s). Inside `radius_m` horizontally, with the goal's altitude more than
 * ARRIVAL_ALTITUDE_TOLERANCE_M away and the way ahead clear (blocked_cruise under
 * ARRIVAL_CLEAR_LEVEL), the approach flies the vertical manoeuvre toward the goal's altitude with
 * the forward speed that closes the horizontal distance in the same time (none when the goal is
 * behind), at most the manoeuvre's own speed.
 *
 * Guarded (`arcs` given; thirty-fourth session, after the unguarded approach descended
 * into branches it saw in the woods' test flights, docs/results/strikes-arrival-6-trees-test-100.txt):
 * the manoeuvre's own arc must be clear too (the planner's blocked value for it under
 * ARRIVAL_CLEAR_LEVEL); otherwise the planner decides.
 */
import { ACTIONS, type ActionLimits } from "./actions";
import type { LocalPlanner } from "./LocalPlanner";
import type { Navigation } from "./navigation";

const ACTION_CLIMB = ACTIONS.indexOf("climb");
const ACTION_DESCEND = ACTIONS.indexOf("descend");

/** Goal altitude error (m) under which the planner's own decision is flown. */
export const ARRIVAL_ALTITUDE_TOLERANCE_M = 1;
/** blocked_cruise at and above which the planner's own decision is flown (the way ahead is not clear). */
export const ARRIVAL_CLEAR_LEVEL = 0.5;

export type ArrivalDecision = { action: number; forward_m_s: number };

/**
 * The final approach's decision at `nav`, written into `out`, or undefined where the planner's own
 * decision stands (outside the radius, at the goal's altitude, the way ahead blocked, the
 * manoeuvre's arc blocked when guarded, or off).
 */
export function arrivalDecision(nav: Readonly<Navigation>, blockedAhead: number, radius_m: number, limits: Readonly<ActionLimits>, out: ArrivalDecision, arcs?: { blockedOf(action: number): number }): ArrivalDecision | undefined {
  const dz = nav.goalDz_m;
  if (!(radius_m > 0 && nav.goalDistance_m < radius_m && Math.abs(dz) > ARRIVAL_ALTITUDE_TOLERANCE_M && blockedAhead < ARRIVAL_CLEAR_LEVEL)) return undefined;
  const action = dz > 0 ? ACTION_CLIMB : ACTION_DESCEND;
  if (arcs !== undefined && !(arcs.blockedOf(action) < ARRIVAL_CLEAR_LEVEL)) return undefined;
  const manoeuvre = limits.cruiseSpeed_m_s * limits.slowFraction;
  const toAltitude_s = Math.abs(dz) / limits.verticalSpeed_m_s;
  const ahead_m = nav.goalDistance_m * Math.max(0, Math.cos(nav.goalBearing_rad));
  out.action = action;
  out.forward_m_s = Math.min(manoeuvre, ahead_m / toAltitude_s);
  return out;
}

/**
 * The final approach of `planner`'s options (arrivalRadius_m, arrivalGuarded, limits) after its last
 * score(), at `nav`; undefined where the planner's own decision stands. The eval's pilot and the
 * controller node both call it.
 */
export function plannerArrival(planner: LocalPlanner, nav: Readonly<Navigation>, out: ArrivalDecision): ArrivalDecision | undefined {
  const { arrivalRadius_m, arrivalGuarded, limits } = planner.options;
  return arrivalRadius_m > 0 ? arrivalDecision(nav, planner.blockedAhead, arrivalRadius_m, limits, out, arrivalGuarded ? planner : undefined) : undefined;
}
