/**
 * The discrete flight actions of the student's policy head, shared by the expert pilot, the
 * training loop, the controller node and the evaluation, so that "action 2" means the same thing
 * everywhere. Velocities are body-frame FLU (REP-103: x forward, y left, z up) in m/s and yaw rate
 * in rad/s (positive = counter-clockwise seen from above = turn left).
 */
export const ACTIONS = ["cruise", "slow", "hover", "climb", "descend", "yaw_left", "yaw_right"] as const;
export type ActionName = (typeof ACTIONS)[number];
export const NUM_ACTIONS = ACTIONS.length;

export type ActionLimits = {
  /** Forward speed of "cruise", m/s. Default 4. */
  cruiseSpeed_m_s: number;
  /** Forward speed of "slow" and of the manoeuvres, as a fraction of cruise. Default 0.35. */
  slowFraction: number;
  /** Vertical speed of "climb"/"descend", m/s. Default 1.5. */
  verticalSpeed_m_s: number;
  /** Yaw rate of "yaw_left"/"yaw_right", rad/s. Default 0.6. */
  yawRate_rad_s: number;
};

export const DEFAULT_ACTION_LIMITS: ActionLimits = {
  cruiseSpeed_m_s: 4,
  slowFraction: 0.35,
  verticalSpeed_m_s: 1.5,
  yawRate_rad_s: 0.6,
};

/** Body-frame velocity command (FLU, m/s and rad/s). */
export type BodyVelocityCommand = { vx_m_s: number; vy_m_s: number; vz_m_s: number; yawRate_rad_s: number };

/** Writes the velocity command of `action` into `out` (no allocation) and returns it. */
export function actionToCommand(
  action: number,
  limits: ActionLimits,
  out: BodyVelocityCommand = { vx_m_s: 0, vy_m_s: 0, vz_m_s: 0, yawRate_rad_s: 0 },
): BodyVelocityCommand {
  const name = ACTIONS[action];
  if (name === undefined) {
    throw new RangeError(`action=${action}, expected an integer in [0, ${NUM_ACTIONS - 1}]`);
  }
  const slow = limits.cruiseSpeed_m_s * limits.slowFraction;
  out.vy_m_s = 0;
  switch (name) {
    case "cruise":
      out.vx_m_s = limits.cruiseSpeed_m_s; out.vz_m_s = 0; out.yawRate_rad_s = 0;
      break;
    case "slow":
      out.vx_m_s = slow; out.vz_m_s = 0; out.yawRate_rad_s = 0;
      break;
    case "hover":
      out.vx_m_s = 0; out.vz_m_s = 0; out.yawRate_rad_s = 0;
      break;
    case "climb":
      out.vx_m_s = slow; out.vz_m_s = limits.verticalSpeed_m_s; out.yawRate_rad_s = 0;
      break;
    case "descend":
      out.vx_m_s = slow; out.vz_m_s = -limits.verticalSpeed_m_s; out.yawRate_rad_s = 0;
      break;
    case "yaw_left":
      out.vx_m_s = slow; out.vz_m_s = 0; out.yawRate_rad_s = limits.yawRate_rad_s;
      break;
    case "yaw_right":
      out.vx_m_s = slow; out.vz_m_s = 0; out.yawRate_rad_s = -limits.yawRate_rad_s;
      break;
  }
  return out;
}

/** Detection classes of the per-cell grid (SPEC "How results are measured"). */
export const DETECTION_CLASSES = ["background", "wire", "branch", "pole_trunk"] as const;
export type DetectionClass = (typeof DETECTION_CLASSES)[number];
export const NUM_DETECTION_CLASSES = DETECTION_CLASSES.length;
