/**
 * The state inputs perception and harness share (SPEC "Inputs"): their SensorState parameters
 * (home_altitude_m, use_first_fix_as_home, state_period_s), the SensorState those configure, and
 * the imu/data, gps/fix and gps/vel subscriptions that fold validated, stamp-checked messages into
 * it. One home, so both nodes feed their models the same state vector for the same messages.
 *
 * Each subscription: ignored while the node is not active; content check (inputValidation), then
 * the topic's StampGuard (InputHealth.admit: rejections and stamp drops are counted and dropped, a
 * backward time jump runs the node's `onJumpBack`, which must reset `sensors`); an exception is
 * counted as callback_error, never thrown into the executor. QoS: sensor data.
 */
import { QOS_SENSOR_DATA, type RosNode, type Subscription } from "../../../src/ros/graph/types";
import { declareBool, declareDouble } from "../ros/declareParams";
import type { InputHealth } from "../ros/InputHealth";
import { checkImu, checkNavSatFix, checkTwistStamped, type InputCheck } from "./inputValidation";
import { SensorState } from "./SensorState";
import type { Imu, NavSatFix, TwistStamped } from "./sensorTypes";
import { StampGuard } from "../ros/StampGuard";
import { resolveStatePeriod } from "./statePeriod";
import { IMU_TYPE, NAV_SAT_FIX_TYPE, TWIST_STAMPED_TYPE } from "../models/studentOutputMsg";

export const SENSOR_TOPICS = {
  imu: "imu/data",
  fix: "gps/fix",
  vel: "gps/vel",
} as const;

export type SensorStateParams = {
  homeAltitude: number;
  firstFixHome: boolean;
  statePeriod: number;
};

/** Declares the SensorState parameters (in this order: home_altitude_m, use_first_fix_as_home, state_period_s). */
export function declareSensorStateParams(node: RosNode): SensorStateParams {
  return {
    homeAltitude: declareDouble(node, "home_altitude_m", 0, "Altitude of the ground (m, as in gps/fix) when use_first_fix_as_home is false"),
    firstFixHome: declareBool(node, "use_first_fix_as_home", true, "Take the first valid fix's altitude as ground level (false: home_altitude_m; the sim launch sets the simulator's ground)"),
    statePeriod: declareDouble(node, "state_period_s", 0, "Seconds between IMU window samples of the state vector (0 = the models' control period from <model_dir>/training.json, else 0.25)", { from: 0, to: 10 }),
  };
}

export type SensorGate = {
  health: InputHealth;
  isActive: () => boolean;
  /** A backward time jump on a sensor topic: clear the node's histories (`sensors` included). */
  onJumpBack: () => void;
};

type Stamped = { header: { stamp: { sec: number; nanosec: number } } };

export class SensorInputs {
  readonly sensors: SensorState;
  private readonly guards = { imu: new StampGuard(), fix: new StampGuard(), vel: new StampGuard() };

  /** The state period comes from `params.statePeriod`, else from `modelDir`'s training.json (resolveStatePeriod). */
  constructor(node: RosNode, params: SensorStateParams, modelDir: string) {
    const statePeriod = resolveStatePeriod(params.statePeriod, modelDir);
    this.sensors = new SensorState({ statePeriod_s: statePeriod.period_s, ...(params.firstFixHome ? {} : { homeAltitude_m: params.homeAltitude }) });
    node.getLogger().info(`state vector: IMU window every ${statePeriod.period_s} s (${statePeriod.source}); altitude above ${params.firstFixHome ? "the first fix" : `${params.homeAltitude} m`}`);
  }

  /** Creates the imu/data, gps/fix and gps/vel subscriptions, in that order. */
  subscribe(node: RosNode, gate: SensorGate): Subscription[] {
    const T = SENSOR_TOPICS;
    const clock = node.getClock();
    const input = <M extends Stamped>(topic: string, guard: StampGuard, check: (m: M) => InputCheck, apply: (m: M) => void) => (msg: M): void => {
      if (!gate.isActive()) return;
      try {
        if (gate.health.admit(topic, check(msg), () => guard.check(msg.header.stamp, clock.nowNs()), gate.onJumpBack)) apply(msg);
      } catch (err) {
        gate.health.drop(topic, "callback_error", err instanceof Error ? err.message : String(err));
      }
    };
    const s = this.sensors;
    return [
      node.createSubscription<Imu>(IMU_TYPE, T.imu, { qos: QOS_SENSOR_DATA }, input(T.imu, this.guards.imu, (m: Imu) => checkImu(m), (m) => s.onImu(m))),
      node.createSubscription<NavSatFix>(NAV_SAT_FIX_TYPE, T.fix, { qos: QOS_SENSOR_DATA }, input(T.fix, this.guards.fix, checkNavSatFix, (m) => s.onFix(m))),
      node.createSubscription<TwistStamped>(TWIST_STAMPED_TYPE, T.vel, { qos: QOS_SENSOR_DATA }, input(T.vel, this.guards.vel, (m: TwistStamped) => checkTwistStamped(m), (m) => s.onVel(m))),
    ];
  }

  /** Forgets the sensor topics' last stamps (deactivate, cleanup). */
  resetGuards(): void {
    for (const g of Object.values(this.guards)) g.reset();
  }

  /** Forgets the stamps and the sensor state's histories. */
  reset(): void {
    this.resetGuards();
    this.sensors.reset();
  }
}
