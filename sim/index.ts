/**
 * The embedded drone simulator: public API.
 *
 * ```ts
 * import { loadScenarioFile, createSimulation, seedsOfSplit } from "../sim";
 * const scenario = loadScenarioFile("default");            // or parseScenario(text, fileName)
 * const [seed] = seedsOfSplit("train", 1);
 * const sim = createSimulation(scenario, { seed, split: "train" }); // refuses seeds of other splits
 * const rgb = new Uint8Array(sim.camera.width * sim.camera.height * 3);
 * const mask = new Uint8Array(sim.camera.width * sim.camera.height);
 * const boxes = sim.makeBoxList();
 * sim.renderCamera({ rgb, mask, boxes });                    // rgb8 + classes {0,1 wire,2 branch,3 pole/trunk}
 * const status = sim.step({ vx_m_s: 4, vy_m_s: 0, vz_m_s: 0, yawRate_rad_s: 0 }, 1 / 30);
 * const p = sim.privileged();                                // nearest obstacle, on-path distance, TTC
 * ```
 * Frames: world ENU (x east, y north, z up; ground z = 0); body FLU; camera optical (z forward,
 * x right, y down). See docs/sim.md.
 */
export { Rng, hash32 } from "../src/util/Rng";
export { SPLITS, splitOfSeed, assertSeedInSplit, seedsOfSplit, type Split } from "./splits";
export { DEFAULT_SCENARIO, SCENARIO_BOUNDS, type Range, type Scenario } from "./Scenario";
export { parseScenario, ScenarioError } from "./parseScenario";
export { loadScenarioFile, SCENARIO_DIR } from "./io/loadScenarioFile";
export { buildWorld, SEGMENTS_PER_SPAN, type BuildWorldOptions } from "./buildWorld";
export {
  CLASS_BACKGROUND,
  CLASS_WIRE,
  CLASS_BRANCH,
  CLASS_POLE_TRUNK,
  type World,
  type WorldObject,
  type Segments,
  type StructureClass,
  type ObjectKind,
} from "./World";
export { makeCamera, cameraInfoFields, cameraRotation, type CameraModel, type CameraInfoFields } from "./Camera";
export { Renderer, makeBoxList, type BoxList, type CameraPose, type RenderTarget, type RendererOptions } from "./Renderer";
export { GRAVITY_M_S2, makeDroneState, stepDrone, bodyRotation, type DroneParams, type DroneState } from "./Drone";
export { CollisionIndex, HIT_GROUND, HIT_NONE } from "./collision";
export { pointSegmentDistance, segmentSegmentClosest } from "./geometry";
export { computePrivileged, makePrivilegedState, type PrivilegedState, type PrivilegedOptions } from "./privileged";
export {
  sampleImu,
  sampleGpsFix,
  sampleGpsVelocity,
  makeImuSample,
  makeGpsFix,
  makeGpsVelocity,
  STATUS_FIX,
  STATUS_NO_FIX,
  SERVICE_GPS,
  COVARIANCE_TYPE_DIAGONAL_KNOWN,
  COVARIANCE_TYPE_UNKNOWN,
  type ImuSample,
  type GpsFix,
  type GpsVelocity,
} from "./sensors";
export { enuToGeodetic, geodeticToEnu, type GeoOrigin } from "../src/control/geodesy";
export { catenaryPoints, catenaryParameter } from "./catenary";
export { describeCollision } from "./describeCollision";
export { Simulation, createSimulation, GOAL_RADIUS_M, type SimulationOptions, type FlightStatus, type CollisionEvent } from "./Simulation";
