/**
 * Scenario description: the seeded random ranges from which `buildWorld` draws one world per seed,
 * plus sensor, drone and perturbation settings. Scenarios are YAML files in sim/scenarios/; every
 * key is optional and falls back to DEFAULT_SCENARIO, so a scenario file states only what differs.
 * Ranges are written `[min, max]` (drawn uniformly per seed) or as a single number (fixed).
 */

/** A closed interval sampled uniformly per seed; min === max means a fixed value. */
export type Range = { min: number; max: number };

export type Scenario = {
  name: string;
  description: string;
  /** Flight path: the drone starts near the origin and flies north (+y, ENU) to the goal. */
  path: {
    length_m: Range;
    altitude_m: Range;
    /** Lateral offset of the start and goal from the x = 0 line, m. */
    lateralOffset_m: Range;
    /** Flight time limit, s. */
    timeLimit_s: number;
  };
  wires: {
    /** Power lines crossing the path (each with its own poles). */
    lines: Range;
    /** Conductors per line (strung between the same poles at cross-arm offsets). */
    conductorsPerLine: Range;
    /** Attachment height of the conductors at the poles, m. */
    height_m: Range;
    /** Mid-span sag of the catenary, m. */
    sag_m: Range;
    /** Conductor radius, m (power lines 5 to 30 mm). */
    radius_m: Range;
    poleSpacing_m: Range;
    /** Angle between a line and the east axis (0 = perpendicular to the northward path), deg. */
    crossingAngle_deg: Range;
    /** Where along the path (fraction of the length) lines cross. */
    alongPath: Range;
    /** Conductor albedo 0..1; dark wires on bright sky and bright wires on dark ground both occur. */
    albedo: Range;
  };
  poles: {
    radius_m: Range;
    albedo: Range;
  };
  trees: {
    count: Range;
    height_m: Range;
    trunkRadius_m: Range;
    /** Branch radius at the trunk, m (thin branches 10 to 50 mm). */
    branchRadius_m: Range;
    branchesPerTree: Range;
    branchLength_m: Range;
    /** Lateral distance of trees from the path centre line, m. */
    lateralSpread_m: Range;
    /** Share of trees placed right on the path (obstacles the drone must avoid). */
    onPathFraction: number;
    albedo: Range;
  };
  ground: {
    /** Ground texture resolution, m per texel. */
    texelSize_m: number;
    /** Texels per side of the repeated ground tile (a power of two; 1024 x 0.35 m = 358 m). */
    textureSize: number;
    /** Relative amount of each land use (0 disables it). */
    fields: number;
    roads: number;
    buildings: number;
    foliage: number;
    water: number;
    /** Overall ground brightness multiplier (dark ground gives bright-wire-on-dark-ground scenes). */
    brightness: Range;
  };
  lighting: {
    sunElevation_deg: Range;
    sunAzimuth_deg: Range;
    /** Exposure multiplier of the camera. */
    exposure: Range;
    /** Cloud cover 0..1. */
    cloudCover: Range;
    /** Visibility for the haze towards the horizon, m. */
    visibility_m: Range;
    /** Sky brightness multiplier (bright sky gives dark-wire-on-bright-sky scenes). */
    skyBrightness: Range;
  };
  wind: {
    meanSpeed_m_s: Range;
    direction_deg: Range;
    /** Standard deviation of the gusts (first-order Gauss-Markov), m/s. */
    gustStd_m_s: Range;
    gustTimeConstant_s: number;
  };
  camera: {
    width: number;
    height: number;
    hfov_deg: number;
    /** Downward pitch of the camera from the body x axis, deg. */
    pitch_deg: number;
    rate_hz: number;
    /** Std of the additive Gaussian pixel noise, in 8-bit intensity units. */
    noiseStd: number;
    /** Extra renders averaged over the exposure for motion blur (0 = off). */
    motionBlurSamples: number;
    /** Exposure time used by motion blur, s. */
    exposureTime_s: number;
  };
  imu: {
    rate_hz: number;
    accelNoiseStd_m_s2: number;
    gyroNoiseStd_rad_s: number;
    accelBiasStd_m_s2: number;
    gyroBiasStd_rad_s: number;
  };
  gps: {
    rate_hz: number;
    horizontalStd_m: number;
    verticalStd_m: number;
    velocityStd_m_s: number;
    originLat_deg: number;
    originLon_deg: number;
    originAlt_m: number;
  };
  drone: {
    bodyRadius_m: number;
    timeConstant_s: number;
    yawTimeConstant_s: number;
    maxSpeed_m_s: number;
    maxAccel_m_s2: number;
    maxYawRate_rad_s: number;
    /** Linear drag coefficient per second (a = -k (v - wind)); the controller feeds it forward. */
    drag_per_s: number;
  };
  /** Robustness test shift, applied when a simulation is created with `perturbed: true`. */
  perturbation: {
    sensorBiasScale: number;
    sensorNoiseScale: number;
    /** Multiplies the exposure (1.15 = 15 % brighter). */
    lightingScale: number;
    wireThicknessScale: number;
  };
};

const r = (min: number, max: number = min): Range => ({ min, max });

/** Every default, also the schema the YAML validator checks keys and value kinds against. */
export const DEFAULT_SCENARIO: Scenario = {
  name: "default",
  description: "power-line corridor: lines crossing the path, some trees",
  path: { length_m: r(120, 160), altitude_m: r(6, 14), lateralOffset_m: r(-5, 5), timeLimit_s: 90 },
  wires: {
    lines: r(2, 4),
    conductorsPerLine: r(1, 4),
    height_m: r(7, 16),
    sag_m: r(0.5, 3),
    radius_m: r(0.005, 0.03),
    poleSpacing_m: r(40, 80),
    crossingAngle_deg: r(-35, 35),
    alongPath: r(0.2, 0.9),
    albedo: r(0.05, 0.85),
  },
  poles: { radius_m: r(0.1, 0.2), albedo: r(0.25, 0.6) },
  trees: {
    count: r(4, 12),
    height_m: r(5, 14),
    trunkRadius_m: r(0.08, 0.25),
    branchRadius_m: r(0.01, 0.05),
    branchesPerTree: r(6, 14),
    branchLength_m: r(1.2, 4),
    lateralSpread_m: r(3, 40),
    onPathFraction: 0.3,
    albedo: r(0.12, 0.4),
  },
  ground: { texelSize_m: 0.35, textureSize: 1024, fields: 1, roads: 0.6, buildings: 0.5, foliage: 0.8, water: 0.3, brightness: r(0.6, 1.3) },
  lighting: {
    sunElevation_deg: r(15, 75),
    sunAzimuth_deg: r(0, 360),
    exposure: r(0.75, 1.25),
    cloudCover: r(0, 0.8),
    visibility_m: r(600, 4000),
    skyBrightness: r(0.7, 1.2),
  },
  wind: { meanSpeed_m_s: r(0, 3), direction_deg: r(0, 360), gustStd_m_s: r(0, 1), gustTimeConstant_s: 2 },
  camera: { width: 256, height: 256, hfov_deg: 90, pitch_deg: 5, rate_hz: 30, noiseStd: 2, motionBlurSamples: 0, exposureTime_s: 0.01 },
  imu: { rate_hz: 200, accelNoiseStd_m_s2: 0.05, gyroNoiseStd_rad_s: 0.005, accelBiasStd_m_s2: 0.05, gyroBiasStd_rad_s: 0.002 },
  gps: {
    rate_hz: 10,
    horizontalStd_m: 0.8,
    verticalStd_m: 1.5,
    velocityStd_m_s: 0.1,
    originLat_deg: 47.397742,
    originLon_deg: 8.545594,
    originAlt_m: 488,
  },
  drone: {
    bodyRadius_m: 0.35,
    timeConstant_s: 0.35,
    yawTimeConstant_s: 0.2,
    maxSpeed_m_s: 8,
    maxAccel_m_s2: 5,
    maxYawRate_rad_s: 1.5,
    drag_per_s: 0.1,
  },
  perturbation: { sensorBiasScale: 1.15, sensorNoiseScale: 1.15, lightingScale: 0.85, wireThicknessScale: 0.85 },
};

/**
 * Valid bounds per key (inclusive), checked after parsing; keys not listed only need to be finite.
 * Paths are dotted keys of Scenario.
 */
export const SCENARIO_BOUNDS: Record<string, [number, number]> = {
  "path.length_m": [10, 5000],
  "path.altitude_m": [1, 200],
  "path.timeLimit_s": [1, 3600],
  "wires.lines": [0, 20],
  "wires.conductorsPerLine": [1, 6],
  "wires.height_m": [2, 100],
  "wires.sag_m": [0, 30],
  "wires.radius_m": [0.001, 0.1],
  "wires.poleSpacing_m": [5, 500],
  "wires.crossingAngle_deg": [-80, 80],
  "wires.alongPath": [0, 1],
  "wires.albedo": [0, 1],
  "poles.radius_m": [0.02, 1],
  "poles.albedo": [0, 1],
  "trees.count": [0, 200],
  "trees.height_m": [1, 50],
  "trees.trunkRadius_m": [0.02, 2],
  "trees.branchRadius_m": [0.002, 0.3],
  "trees.branchesPerTree": [0, 60],
  "trees.branchLength_m": [0.1, 20],
  "trees.lateralSpread_m": [0, 500],
  "trees.onPathFraction": [0, 1],
  "trees.albedo": [0, 1],
  "ground.texelSize_m": [0.05, 5],
  "ground.textureSize": [64, 4096],
  "ground.fields": [0, 100],
  "ground.roads": [0, 100],
  "ground.buildings": [0, 100],
  "ground.foliage": [0, 100],
  "ground.water": [0, 100],
  "ground.brightness": [0.05, 4],
  "lighting.sunElevation_deg": [0, 90],
  "lighting.sunAzimuth_deg": [-360, 720],
  "lighting.exposure": [0.05, 10],
  "lighting.cloudCover": [0, 1],
  "lighting.visibility_m": [10, 100000],
  "lighting.skyBrightness": [0.05, 4],
  "wind.meanSpeed_m_s": [0, 40],
  "wind.direction_deg": [-360, 720],
  "wind.gustStd_m_s": [0, 20],
  "wind.gustTimeConstant_s": [0.01, 100],
  "camera.width": [8, 4096],
  "camera.height": [8, 4096],
  "camera.hfov_deg": [5, 170],
  "camera.pitch_deg": [-90, 90],
  "camera.rate_hz": [0.1, 1000],
  "camera.noiseStd": [0, 100],
  "camera.motionBlurSamples": [0, 16],
  "camera.exposureTime_s": [0, 1],
  "imu.rate_hz": [1, 2000],
  "imu.accelNoiseStd_m_s2": [0, 10],
  "imu.gyroNoiseStd_rad_s": [0, 10],
  "imu.accelBiasStd_m_s2": [0, 10],
  "imu.gyroBiasStd_rad_s": [0, 10],
  "gps.rate_hz": [0.1, 100],
  "gps.horizontalStd_m": [0, 100],
  "gps.verticalStd_m": [0, 100],
  "gps.velocityStd_m_s": [0, 100],
  "gps.originLat_deg": [-89, 89],
  "gps.originLon_deg": [-180, 180],
  "gps.originAlt_m": [-500, 9000],
  "drone.bodyRadius_m": [0.01, 5],
  "drone.timeConstant_s": [0.01, 10],
  "drone.yawTimeConstant_s": [0.01, 10],
  "drone.maxSpeed_m_s": [0.1, 100],
  "drone.maxAccel_m_s2": [0.1, 100],
  "drone.maxYawRate_rad_s": [0.01, 20],
  "drone.drag_per_s": [0, 10],
  "perturbation.sensorBiasScale": [0, 10],
  "perturbation.sensorNoiseScale": [0, 10],
  "perturbation.lightingScale": [0.05, 10],
  "perturbation.wireThicknessScale": [0.05, 10],
};

/** Keys whose values must be integers (counts and image sizes). */
export const SCENARIO_INTEGER_KEYS: ReadonlySet<string> = new Set([
  "wires.lines",
  "wires.conductorsPerLine",
  "trees.count",
  "trees.branchesPerTree",
  "camera.width",
  "ground.textureSize",
  "camera.height",
  "camera.motionBlurSamples",
]);
