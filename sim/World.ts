/**
 * The world of one scenario seed: thin structures as a flat list of 3D cylinder segments (the
 * renderer, the collision test, the privileged state and the Gazebo export all read the same
 * arrays), the ground texture, the sky and the start and goal. Coordinates are local ENU metres
 * (REP-103 / REP-105 `map` frame: x east, y north, z up), the ground is the plane z = 0.
 */
import type { GroundTexture } from "./GroundTexture";
import type { Scenario } from "./Scenario";
import type { SkyModel } from "./SkyModel";

/** Ground-truth classes, the same indices as DETECTION_CLASSES in src/control/actions.ts. */
export const CLASS_BACKGROUND = 0;
export const CLASS_WIRE = 1;
export const CLASS_BRANCH = 2;
export const CLASS_POLE_TRUNK = 3;
export type StructureClass = typeof CLASS_WIRE | typeof CLASS_BRANCH | typeof CLASS_POLE_TRUNK;

export type ObjectKind = "wire" | "pole" | "trunk" | "branches";

/** One labelled object (a conductor span, a pole, a trunk, the branches of one tree). */
export type WorldObject = {
  id: number;
  kind: ObjectKind;
  cls: StructureClass;
  /** Linear RGB albedo 0..1. */
  albedo: [number, number, number];
  /** Specular strength 0..1 (metallic conductors shine). */
  specular: number;
  firstSegment: number;
  segmentCount: number;
};

/** Thin structures as cylinders: segment i runs from a[3i..3i+2] to b[3i..3i+2] with radius[i]. */
export type Segments = {
  count: number;
  a: Float64Array;
  b: Float64Array;
  radius: Float64Array;
  cls: Uint8Array;
  object: Int32Array;
};

export type Pose2 = { x: number; y: number; z: number; yaw_rad: number };

export type World = {
  seed: number;
  scenario: Scenario;
  /** True when the scenario's perturbation block was applied. */
  perturbed: boolean;
  segments: Segments;
  objects: WorldObject[];
  ground: GroundTexture;
  sky: SkyModel;
  /** Start pose (ENU, yaw from east counter-clockwise, REP-103). */
  start: Pose2;
  goal: { x: number; y: number; z: number };
  /** Wind drawn for this seed: mean vector (ENU, m/s), gust std and time constant. */
  wind: { mean: [number, number, number]; gustStd_m_s: number; gustTimeConstant_s: number };
  /** Camera exposure multiplier drawn for this seed (perturbation included). */
  exposure: number;
};
