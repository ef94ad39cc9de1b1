/**
 * Adapter from the embedded simulator (sim/) to DroneEnvironment: one Simulation per seed, one
 * action per control period, the normalised sensor state of src/harness/models/stateVector.ts
 * (altitude above the ground plane z = 0, GPS velocity ENU, IMU differences between the samples
 * taken at consecutive control steps), privileged state for the expert, and the reward events of
 * EnvironmentReward.ts. The seed's split is checked twice: by the SeedSource of the caller and
 * by the simulator itself (createSimulation with `split`).
 */
import { actionToCommand, DEFAULT_ACTION_LIMITS, type BodyVelocityCommand } from "../actions";
import { normaliseState, IMU_DIFF_WINDOW, type ImuSample } from "../models/stateVector";
// The pure simulator modules, not sim/index.ts (which also carries the fs scenario loader).
import { createSimulation, type Simulation } from "../../../sim/Simulation";
import { makeImuSample, makeGpsVelocity } from "../../../sim/sensors";
import { makePrivilegedState } from "../../../sim/privileged";
import type { Scenario } from "../../../sim/Scenario";
import type { Split } from "../../../sim/splits";
import type { DroneEnvironment, EnvironmentFactory, FlightEvent, Navigation, RenderTruth } from "./DroneEnvironment";
import type { ExpertObservation, ObstacleKind } from "./ExpertPilot";
import { goalRelative } from "../../control/navigation";
import type { WireGeometry } from "../eval/wireCrossings";
import { CLASS_WIRE } from "../../../sim/World";

export type SimEnvironmentOptions = {
  /** Control period, s. Default 0.2 (5 decisions per second). */
  controlPeriod_s?: number;
};

const CLASS_KIND: Record<number, ObstacleKind | undefined> = { 1: "wire", 2: "branch", 3: "pole_trunk" };

export class SimEnvironment implements DroneEnvironment {
  readonly sim: Simulation;
  readonly controlPeriod_s: number;
  readonly width: number;
  readonly height: number;
  private readonly cmd: BodyVelocityCommand = { vx_m_s: 0, vy_m_s: 0, vz_m_s: 0, yawRate_rad_s: 0 };
  private readonly imu: ImuSample[] = [];
  private readonly imuRaw = makeImuSample();
  private readonly vel = makeGpsVelocity();
  private readonly priv = makePrivilegedState();
  private wires: WireGeometry | undefined;

  constructor(
    scenario: Scenario,
    readonly seed: number,
    split: Split,
    perturbed: boolean,
    options: SimEnvironmentOptions = {},
  ) {
    this.sim = createSimulation(scenario, { seed, split, perturbed });
    this.controlPeriod_s = options.controlPeriod_s ?? 0.2;
    this.width = this.sim.camera.width;
    this.height = this.sim.camera.height;
    this.sampleImu();
  }

  get time_s(): number {
    return this.sim.time_s;
  }

  private sampleImu(): void {
    const s = this.sim.readImu(this.imuRaw);
    this.imu.push({
      gyro_rad_s: [s.angular_velocity.x, s.angular_velocity.y, s.angular_velocity.z],
      accel_m_s2: [s.linear_acceleration.x, s.linear_acceleration.y, s.linear_acceleration.z],
    });
    while (this.imu.length > IMU_DIFF_WINDOW + 1) this.imu.shift();
  }

  render(rgb: Uint8Array, mask?: Uint8Array, truth?: RenderTruth): void {
    if (mask === undefined) {
      this.sim.renderCamera({ rgb });
      return;
    }
    this.sim.renderCamera({
      rgb,
      mask,
      ...(truth?.visibleMask === undefined ? {} : { visibleMask: truth.visibleMask }),
      ...(truth?.depth === undefined ? {} : { depth: truth.depth }),
    });
  }

  navigation(out: Navigation): Navigation {
    return simNavigation(this.sim, out);
  }

  altitude_m(): number {
    return this.sim.drone.position[2]!;
  }

  sensorState(out: Float32Array): void {
    const v = this.sim.readGpsVelocity(this.vel).linear;
    normaliseState({ altitude_m: this.altitude_m(), velocityEnu_m_s: [v.x, v.y, v.z], imu: this.imu }, out);
  }

  expertObservation(): ExpertObservation {
    const p = this.sim.privileged(this.priv);
    const kind = CLASS_KIND[p.pathClass];
    let threat: ExpertObservation["threat"] = null;
    if (kind !== undefined && Number.isFinite(p.pathDistance_m)) {
      const d = p.pathDistance_m;
      const ce = Math.cos(p.pathElevation_rad);
      threat = { kind, ahead_m: d * ce * Math.cos(p.pathAzimuth_rad), left_m: d * ce * Math.sin(p.pathAzimuth_rad), up_m: d * Math.sin(p.pathElevation_rad) };
    }
    const goal = this.sim.world.goal;
    return { altitude_m: this.altitude_m(), goalBearing_rad: p.goalAzimuth_rad, goalDz_m: goal.z - this.altitude_m(), threat };
  }

  truePosition_m(out: Float64Array): void {
    const p = this.sim.drone.position;
    out[0] = p[0]!;
    out[1] = p[1]!;
    out[2] = p[2]!;
  }

  wireGeometry(): WireGeometry {
    if (this.wires === undefined) {
      const s = this.sim.world.segments;
      const idx: number[] = [];
      for (let i = 0; i < s.count; i++) if (s.cls[i] === CLASS_WIRE) idx.push(i);
      const g: WireGeometry = { count: idx.length, a: new Float64Array(3 * idx.length), b: new Float64Array(3 * idx.length), radius: new Float64Array(idx.length), object: new Int32Array(idx.length) };
      idx.forEach((i, k) => {
        for (let c = 0; c < 3; c++) {
          g.a[3 * k + c] = s.a[3 * i + c]!;
          g.b[3 * k + c] = s.b[3 * i + c]!;
        }
        g.radius[k] = s.radius[i]!;
        g.object[k] = s.object[i]!;
      });
      this.wires = g;
    }
    return this.wires;
  }

  step(action: number, forward_m_s?: number): FlightEvent {
    actionToCommand(action, DEFAULT_ACTION_LIMITS, this.cmd);
    if (forward_m_s !== undefined) {
      if (!(Number.isFinite(forward_m_s) && forward_m_s >= 0 && forward_m_s <= DEFAULT_ACTION_LIMITS.cruiseSpeed_m_s)) throw new RangeError(`forward_m_s=${forward_m_s}, expected a speed in [0, ${DEFAULT_ACTION_LIMITS.cruiseSpeed_m_s}] m/s`);
      this.cmd.vx_m_s = forward_m_s;
    }
    const status = this.sim.step(this.cmd, this.controlPeriod_s);
    this.sampleImu();
    switch (status) {
      case "flying":
        return { type: "running" };
      case "goal_reached":
        return { type: "goal" };
      case "timeout":
        return { type: "timeout" };
      case "collided": {
        const cls = this.sim.collision?.cls ?? 0;
        return { type: "collision", obstacle: CLASS_KIND[cls] ?? "ground" };
      }
    }
  }
}

/** Factory of SimEnvironments for one scenario and split. */
export function simEnvironmentFactory(scenario: Scenario, split: Split, options: SimEnvironmentOptions = {}): EnvironmentFactory {
  return (seed, { perturbed }) => new SimEnvironment(scenario, seed, split, perturbed, options);
}

const rel = { bearing_rad: 0, distance_m: 0 };

/** The planner's navigation from the simulator's true state (eval, the data stage, the main job's decision check). */
export function simNavigation(sim: Simulation, out: Navigation): Navigation {
  const d = sim.drone;
  const goal = sim.world.goal;
  goalRelative(d.yaw, goal.x - d.position[0]!, goal.y - d.position[1]!, rel);
  out.goalBearing_rad = rel.bearing_rad;
  out.goalDistance_m = rel.distance_m;
  out.altitude_m = d.position[2]!;
  out.goalDz_m = goal.z - out.altitude_m;
  out.forwardSpeed_m_s = Math.cos(d.yaw) * d.velocity[0]! + Math.sin(d.yaw) * d.velocity[1]!;
  out.pitch_rad = d.pitch;
  out.yaw_rad = d.yaw;
  return out;
}
