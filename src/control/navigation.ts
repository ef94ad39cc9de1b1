/**
 * Where the goal is, seen from the drone: the planner's navigation input (issue 12 item 1), from
 * the sensors a real aircraft has (sensor_msgs/NavSatFix, the attitude estimate in
 * sensor_msgs/Imu orientation, the GNSS velocity in ENU) and a goal given as WGS84 coordinates
 * (geographic_msgs/GeoPoseStamped position, or the controller's goal_* parameters).
 *
 * The goal is taken to local ENU around the current fix with the tangent-plane approximation of
 * ./geodesy.ts (centimetres within a few km; the planner needs the bearing to a degree). Altitudes
 * are in the fix's datum (NavSatFix altitude; the simulator and the goal use the same), so the
 * altitude difference needs no geoid model. Frames: ENU world, FLU body (REP-103); yaw counter-
 * clockwise from east, pitch positive nose down.
 */
import { geodeticToEnu, type Geodetic } from "./geodesy";

export type Navigation = {
  /** Goal bearing relative to the heading, positive left (REP-103), rad in [-pi, pi]. */
  goalBearing_rad: number;
  /** Horizontal distance to the goal, m. */
  goalDistance_m: number;
  /** Goal altitude minus altitude, m. */
  goalDz_m: number;
  /** Altitude above the ground, m. */
  altitude_m: number;
  /** Speed along the heading, m/s. */
  forwardSpeed_m_s: number;
  /** Body pitch, rad, FLU (positive nose down): the autopilot's attitude estimate. */
  pitch_rad: number;
  /** Heading, rad, ENU counter-clockwise from east (the harness differences it into a yaw rate). */
  yaw_rad: number;
};

export function makeNavigation(): Navigation {
  return { goalBearing_rad: 0, goalDistance_m: 0, goalDz_m: 0, altitude_m: 0, forwardSpeed_m_s: 0, pitch_rad: 0, yaw_rad: 0 };
}

/** Bearing (rad, positive left) and forward speed of world-frame vectors for a heading. */
export function goalRelative(yawEnu_rad: number, east_m: number, north_m: number, out: { bearing_rad: number; distance_m: number }): void {
  const c = Math.cos(yawEnu_rad), s = Math.sin(yawEnu_rad);
  out.bearing_rad = Math.atan2(-s * east_m + c * north_m, c * east_m + s * north_m);
  out.distance_m = Math.hypot(east_m, north_m);
}

/** Pitch (rad, FLU, positive nose down) of an ENU orientation quaternion (ZYX Euler). */
export function pitchFromQuaternion(q: { x: number; y: number; z: number; w: number }): number {
  const s = 2 * (q.w * q.y - q.z * q.x);
  return Math.asin(Math.max(-1, Math.min(1, s)));
}

export type NavigationSensors = {
  /** The latest valid fix (degrees, degrees, metres). */
  fix: Geodetic;
  goal: Geodetic;
  /** Heading, rad, ENU counter-clockwise from east. */
  yawEnu_rad: number;
  pitch_rad: number;
  /** GNSS velocity, ENU m/s. */
  velocityEnu_m_s: { x: number; y: number };
  /** Altitude of the ground in the fix's datum, m. */
  groundAltitude_m: number;
};

const rel = { bearing_rad: 0, distance_m: 0 };

/** Fills `out` from the sensors; throws a RangeError naming the first non-finite input. */
export function navigationFromSensors(s: NavigationSensors, out: Navigation): Navigation {
  const inputs: [string, number][] = [
    ["fix.latitude", s.fix.latitude], ["fix.longitude", s.fix.longitude], ["fix.altitude", s.fix.altitude],
    ["goal.latitude", s.goal.latitude], ["goal.longitude", s.goal.longitude], ["goal.altitude", s.goal.altitude],
    ["yaw", s.yawEnu_rad], ["pitch", s.pitch_rad], ["velocity.x", s.velocityEnu_m_s.x], ["velocity.y", s.velocityEnu_m_s.y],
    ["groundAltitude", s.groundAltitude_m],
  ];
  for (const [name, v] of inputs) if (!Number.isFinite(v)) throw new RangeError(`navigation input ${name}=${v}, expected a finite number`);
  const [east, north] = geodeticToEnu({ lat_deg: s.fix.latitude, lon_deg: s.fix.longitude, alt_m: s.fix.altitude }, s.goal);
  goalRelative(s.yawEnu_rad, east, north, rel);
  out.goalBearing_rad = rel.bearing_rad;
  out.goalDistance_m = rel.distance_m;
  out.goalDz_m = s.goal.altitude - s.fix.altitude;
  out.altitude_m = s.fix.altitude - s.groundAltitude_m;
  out.forwardSpeed_m_s = Math.cos(s.yawEnu_rad) * s.velocityEnu_m_s.x + Math.sin(s.yawEnu_rad) * s.velocityEnu_m_s.y;
  out.pitch_rad = s.pitch_rad;
  out.yaw_rad = s.yawEnu_rad;
  return out;
}

/**
 * `nav` after a small move along state dimension j (0 yaw left by d rad, 1 pitch nose down by d
 * rad, 2 forward by d m along the heading), into `out`: what the planner would read there.
 */
export function movedNavigation(nav: Readonly<Navigation>, j: number, d: number, out: Navigation): Navigation {
  Object.assign(out, nav);
  if (j === 0) {
    out.yaw_rad = nav.yaw_rad + d;
    out.goalBearing_rad = Math.atan2(Math.sin(nav.goalBearing_rad - d), Math.cos(nav.goalBearing_rad - d));
  } else if (j === 1) {
    out.pitch_rad = nav.pitch_rad + d;
  } else {
    // The goal in the body frame (x forward, y left) moves back by d.
    const x = nav.goalDistance_m * Math.cos(nav.goalBearing_rad) - d;
    const y = nav.goalDistance_m * Math.sin(nav.goalBearing_rad);
    out.goalDistance_m = Math.hypot(x, y);
    out.goalBearing_rad = Math.atan2(y, x);
  }
  return out;
}
