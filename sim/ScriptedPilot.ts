/**
 * A simple scripted pilot over the privileged state, for headless runs and smoke tests (the
 * expert used for training is src/harness/data/ExpertPilot.ts). It flies toward the goal at
 * `cruise_m_s`, turning with a proportional yaw rate; when a structure is on the flight path
 * within `lookahead_m` it slows down and climbs over it (wires) or sidesteps it (branches, poles,
 * trunks, to the side away from the obstacle's bearing).
 */
import type { BodyVelocityCommand } from "../src/control/actions";
import type { PrivilegedState } from "./privileged";
import { CLASS_WIRE } from "./World";

export type ScriptedPilotOptions = {
  /** Default 4 m/s. */
  cruise_m_s: number;
  /** Default 12 m. */
  lookahead_m: number;
  /** Default 1.2 rad/s per rad of goal bearing. */
  yawGain_per_s: number;
  /** Default 2 m/s. */
  climb_m_s: number;
};

/** Surface distance to a non-wire structure ahead below which the pilot stops closing in, m. */
export const HOLD_OFF_M = 1.5;

export const DEFAULT_SCRIPTED_PILOT: ScriptedPilotOptions = { cruise_m_s: 4, lookahead_m: 12, yawGain_per_s: 1.2, climb_m_s: 2 };

/** Writes the command for privileged state `p` and altitude error `goalDz_m` into `out`. */
export function scriptedCommand(
  p: PrivilegedState,
  goalDz_m: number,
  out: BodyVelocityCommand,
  o: ScriptedPilotOptions = DEFAULT_SCRIPTED_PILOT,
): BodyVelocityCommand {
  out.vx_m_s = o.cruise_m_s;
  out.vy_m_s = 0;
  out.vz_m_s = Math.max(-1, Math.min(1, 0.5 * goalDz_m));
  out.yawRate_rad_s = Math.max(-1, Math.min(1, o.yawGain_per_s * p.goalAzimuth_rad));
  // Closer than HOLD_OFF_M to a trunk, pole or branch ahead: back off its surface and step away from
  // it. The path check alone oscillates here: a sidestep turns the velocity (and so the swept path)
  // off the obstacle, cruise resumes straight at it, and the drone creeps in (seed 3 of the default
  // scenario hit a trunk at 16.4 s that way).
  if (p.nearestClass !== CLASS_WIRE && p.nearestDistance_m < HOLD_OFF_M && Math.abs(p.nearestAzimuth_rad) < Math.PI / 2) {
    out.vx_m_s = Math.min(out.vx_m_s, p.nearestDistance_m < HOLD_OFF_M / 2 ? -0.5 : 0.5);
    out.vy_m_s = (p.nearestAzimuth_rad >= 0 ? -1 : 1) * o.climb_m_s;
    out.yawRate_rad_s = 0;
    return out;
  }
  if (p.pathDistance_m < o.lookahead_m) {
    const urgency = 1 - p.pathDistance_m / o.lookahead_m;
    out.vx_m_s = o.cruise_m_s * (1 - 0.8 * urgency);
    if (p.pathClass === CLASS_WIRE) {
      out.vz_m_s = o.climb_m_s;
    } else {
      out.vy_m_s = (p.pathAzimuth_rad >= 0 ? -1 : 1) * 2 * (0.3 + urgency);
      out.yawRate_rad_s = 0;
    }
  }
  return out;
}
