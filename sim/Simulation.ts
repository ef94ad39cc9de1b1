/**
 * One simulated flight: a world (from a scenario and a seed), the drone, wind gusts and the sensor
 * models, advanced by `step(command, dt)`. Sensor reads are explicit calls (the sim node and
 * `runHeadless` schedule them at their rates); every random draw comes from seeded streams, so the
 * same calls in the same order give the same results byte for byte.
 */
import type { BodyVelocityCommand } from "../src/control/actions";
import { enuToGeodetic, type Geodetic } from "../src/control/geodesy";
import { cameraInfoFields, makeCamera, type CameraInfoFields, type CameraModel } from "./Camera";
import { CollisionIndex, HIT_GROUND, HIT_NONE } from "./collision";
import { makeDroneState, stepDrone, type DroneParams, type DroneState } from "./Drone";
import { buildWorld } from "./buildWorld";
import { computePrivileged, makePrivilegedState, type PrivilegedOptions, type PrivilegedState } from "./privileged";
import { Renderer, makeBoxList, type BoxList, type CameraPose, type RenderTarget } from "./Renderer";
import { Rng } from "../src/util/Rng";
import type { Scenario } from "./Scenario";
import { makeGpsFix, makeGpsVelocity, makeImuSample, sampleGpsFix, sampleGpsVelocity, sampleImu, type GpsFix, type GpsNoise, type GpsVelocity, type ImuNoise, type ImuSample } from "./sensors";
import { assertSeedInSplit, type Split } from "./splits";
import { CLASS_BACKGROUND, type ObjectKind, type World } from "./World";

export type SimulationOptions = {
  /** Scenario seed (integer in [0, 2^32)). */
  seed: number;
  /** When given, the seed must belong to this split (training code passes "train"). */
  split?: Split;
  /** Apply the scenario's perturbation block (sensor bias/noise, lighting, wire thickness). */
  perturbed?: boolean;
  /**
   * Overrides the scenario's `ground.textureSize` (texels per side, a power of two in
   * [64, 4096]). The layout, structures, sun and exposure do not depend on it, so flights that
   * do not render (or tests) can use 64 and build their world in milliseconds. Default: the
   * scenario's value.
   */
  groundTextureSize?: number;
};

/** Outcome of the flight so far. */
export type FlightStatus = "flying" | "collided" | "goal_reached" | "timeout";

export type CollisionEvent = {
  time_s: number;
  /** Class of what was hit: 1 wire, 2 branch, 3 pole/trunk, 0 ground. */
  cls: number;
  /** World object id, -1 for the ground. */
  objectId: number;
  /** What was hit, by name: "wire", "pole", "trunk", "branches" or "ground". */
  objectKind: ObjectKind | "ground";
  position: [number, number, number];
};

/** Radius around the goal that counts as reached, m. */
export const GOAL_RADIUS_M = 3;

export class Simulation {
  readonly world: World;
  readonly scenario: Scenario;
  readonly camera: CameraModel;
  readonly drone: DroneState;
  readonly droneParams: DroneParams;
  readonly renderer: Renderer;
  readonly imuNoise: ImuNoise;
  readonly gpsNoise: GpsNoise;
  /** Simulated time since the start, s. */
  time_s = 0;
  status: FlightStatus = "flying";
  collision: CollisionEvent | undefined;
  /** When true, GPS fixes report STATUS_NO_FIX (fix loss on demand). */
  gpsFixLost = false;
  /** Current wind (mean + gust), ENU m/s. */
  readonly wind = new Float64Array(3);
  private readonly gust = new Float64Array(3);
  private readonly collisions: CollisionIndex;
  private readonly dynRng: Rng;
  private readonly imuRng: Rng;
  private readonly gpsRng: Rng;
  private readonly pose: CameraPose = { x: 0, y: 0, z: 0, yaw: 0, pitch: 0, roll: 0 };
  private readonly prevPose: CameraPose = { x: 0, y: 0, z: 0, yaw: 0, pitch: 0, roll: 0 };
  private hasPrevPose = false;
  private readonly maxSubstep_s: number;

  constructor(scenario: Scenario, options: SimulationOptions) {
    if (options.split !== undefined) assertSeedInSplit(options.seed, options.split);
    const perturbed = options.perturbed ?? false;
    const size = options.groundTextureSize;
    if (size !== undefined && !(Number.isInteger(size) && size >= 64 && size <= 4096 && (size & (size - 1)) === 0)) {
      throw new RangeError(`groundTextureSize=${size}, expected a power of two in [64, 4096]`);
    }
    this.scenario = size === undefined ? scenario : { ...scenario, ground: { ...scenario.ground, textureSize: size } };
    this.world = buildWorld(this.scenario, options.seed, { perturbed });
    const c = scenario.camera;
    this.camera = makeCamera(c.width, c.height, c.hfov_deg, c.pitch_deg);
    const p = scenario.perturbation;
    const noiseScale = perturbed ? p.sensorNoiseScale : 1;
    const biasScale = perturbed ? p.sensorBiasScale : 1;
    this.renderer = new Renderer(this.world, this.camera, { noiseStd: c.noiseStd * noiseScale, noiseSeed: options.seed });
    const s = this.world.start;
    this.drone = makeDroneState(s.x, s.y, s.z, s.yaw_rad);
    this.droneParams = { ...scenario.drone };
    const biasRng = Rng.derive(options.seed, 4);
    const imu = scenario.imu;
    const ab = imu.accelBiasStd_m_s2 * biasScale;
    const gb = imu.gyroBiasStd_rad_s * biasScale;
    this.imuNoise = {
      accelNoiseStd_m_s2: imu.accelNoiseStd_m_s2 * noiseScale,
      gyroNoiseStd_rad_s: imu.gyroNoiseStd_rad_s * noiseScale,
      accelBias: [biasRng.normal() * ab, biasRng.normal() * ab, biasRng.normal() * ab],
      gyroBias: [biasRng.normal() * gb, biasRng.normal() * gb, biasRng.normal() * gb],
    };
    const g = scenario.gps;
    this.gpsNoise = { horizontalStd_m: g.horizontalStd_m * noiseScale, verticalStd_m: g.verticalStd_m * noiseScale, velocityStd_m_s: g.velocityStd_m_s * noiseScale };
    this.collisions = new CollisionIndex(this.world.segments);
    this.dynRng = Rng.derive(options.seed, 5);
    this.imuRng = Rng.derive(options.seed, 6);
    this.gpsRng = Rng.derive(options.seed, 7);
    this.maxSubstep_s = 1 / imu.rate_hz;
    this.wind.set(this.world.wind.mean);
  }

  /**
   * Advances the simulation by `dt_s` under the body-frame velocity command (FLU, heading frame),
   * in sub-steps no longer than the IMU period. After a collision the drone stops where it hit
   * and the status stays "collided". Returns the status.
   */
  step(command: BodyVelocityCommand, dt_s: number): FlightStatus {
    if (!(dt_s > 0) || !Number.isFinite(dt_s)) throw new RangeError(`dt_s=${dt_s}, expected a finite number > 0`);
    if (this.status === "collided") {
      this.time_s += dt_s;
      return this.status;
    }
    const n = Math.max(1, Math.ceil(dt_s / this.maxSubstep_s - 1e-9));
    const h = dt_s / n;
    const w = this.world.wind;
    const tau = w.gustTimeConstant_s;
    const gustGain = w.gustStd_m_s * Math.sqrt((2 * h) / tau);
    for (let i = 0; i < n; i++) {
      // First-order Gauss-Markov gusts with stationary std gustStd.
      for (let k = 0; k < 3; k++) {
        const gk = this.gust[k]! * (1 - h / tau) + gustGain * this.dynRng.normal() * (k === 2 ? 0.3 : 1);
        this.gust[k] = gk;
        this.wind[k] = w.mean[k]! + gk;
      }
      stepDrone(this.drone, this.droneParams, command, this.wind, h);
      this.time_s += h;
      const pos = this.drone.position;
      const hit = this.collisions.sphereHit(pos[0]!, pos[1]!, pos[2]!, this.droneParams.bodyRadius_m);
      if (hit !== HIT_NONE) {
        this.status = "collided";
        this.collision = {
          time_s: this.time_s,
          cls: hit === HIT_GROUND ? CLASS_BACKGROUND : this.world.segments.cls[hit]!,
          objectId: hit === HIT_GROUND ? -1 : this.world.segments.object[hit]!,
          objectKind: hit === HIT_GROUND ? "ground" : (this.world.objects[this.world.segments.object[hit]!]?.kind ?? "ground"),
          position: [pos[0]!, pos[1]!, pos[2]!],
        };
        this.drone.velocity.fill(0);
        return this.status;
      }
    }
    const p = this.drone.position;
    const goal = this.world.goal;
    if (Math.hypot(p[0]! - goal.x, p[1]! - goal.y, p[2]! - goal.z) < GOAL_RADIUS_M) this.status = "goal_reached";
    else if (this.time_s >= this.scenario.path.timeLimit_s) this.status = "timeout";
    else this.status = "flying";
    return this.status;
  }

  /** The camera pose of the current state (optical centre at the body centre). */
  cameraPose(out: CameraPose = this.pose): CameraPose {
    const d = this.drone;
    out.x = d.position[0]!;
    out.y = d.position[1]!;
    out.z = d.position[2]!;
    out.yaw = d.yaw;
    out.pitch = d.pitch;
    out.roll = d.roll;
    return out;
  }

  /**
   * Renders the camera image (rgb8, width * height * 3) and, when given, the class mask and the
   * 2D boxes. With motion blur enabled in the scenario, blurs from the pose of the previous call.
   */
  renderCamera(target: RenderTarget): void {
    const pose = this.cameraPose(this.pose);
    const blur = this.scenario.camera.motionBlurSamples;
    if (blur > 0 && this.hasPrevPose) {
      // Only the exposure time's share of the motion since the last frame blurs the image.
      const f = Math.min(1, this.scenario.camera.exposureTime_s * this.scenario.camera.rate_hz);
      const from = this.prevPose;
      from.x = pose.x + (from.x - pose.x) * f;
      from.y = pose.y + (from.y - pose.y) * f;
      from.z = pose.z + (from.z - pose.z) * f;
      from.yaw = pose.yaw + (from.yaw - pose.yaw) * f;
      from.pitch = pose.pitch + (from.pitch - pose.pitch) * f;
      from.roll = pose.roll + (from.roll - pose.roll) * f;
      this.renderer.render(pose, target, from, blur);
    } else {
      this.renderer.render(pose, target);
    }
    Object.assign(this.prevPose, pose);
    this.hasPrevPose = true;
  }

  /** A BoxList large enough for every object of this world. */
  makeBoxList(): BoxList {
    return makeBoxList(this.world.objects.length);
  }

  readImu(out: ImuSample = makeImuSample()): ImuSample {
    return sampleImu(this.drone, this.imuNoise, this.imuRng, out);
  }

  readGpsFix(out: GpsFix = makeGpsFix()): GpsFix {
    const g = this.scenario.gps;
    return sampleGpsFix(this.drone, { lat_deg: g.originLat_deg, lon_deg: g.originLon_deg, alt_m: g.originAlt_m }, this.gpsNoise, this.gpsFixLost, this.gpsRng, out);
  }

  /** Distance from the drone's body (a sphere of bodyRadius_m) to the nearest structure's surface, m (negative when penetrating); the ground is not counted. */
  clearance_m(): number {
    const p = this.drone.position;
    return this.collisions.clearance(p[0]!, p[1]!, p[2]!, this.droneParams.bodyRadius_m);
  }

  /** The world's goal in the GPS's WGS84 coordinates (the datum of readGpsFix's altitude). */
  goalGeodetic(): Geodetic {
    const g = this.scenario.gps;
    const goal = this.world.goal;
    return enuToGeodetic({ lat_deg: g.originLat_deg, lon_deg: g.originLon_deg, alt_m: g.originAlt_m }, goal.x, goal.y, goal.z, { latitude: 0, longitude: 0, altitude: 0 });
  }

  readGpsVelocity(out: GpsVelocity = makeGpsVelocity()): GpsVelocity {
    return sampleGpsVelocity(this.drone, this.gpsNoise, this.gpsRng, out);
  }

  cameraInfo(): CameraInfoFields {
    return cameraInfoFields(this.camera);
  }

  privileged(out: PrivilegedState = makePrivilegedState(), options?: PrivilegedOptions): PrivilegedState {
    return computePrivileged(this.world, this.drone, this.droneParams.bodyRadius_m, out, options);
  }
}

export function createSimulation(scenario: Scenario, options: SimulationOptions): Simulation {
  return new Simulation(scenario, options);
}
