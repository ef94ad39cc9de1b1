/**
 * Draws one world from a scenario and a seed: power lines (poles with cross-arms, conductors as
 * catenaries subdivided into straight segments) crossing the northward flight path, trees (trunk
 * plus recursive thin branches), the ground texture, the sky, lighting, wind, start and goal.
 * Every random draw comes from Rng streams derived from the seed, so the world is a pure function
 * of (scenario, seed, perturbed).
 */
import { catenaryPoints } from "./catenary";
import { buildGround } from "./GroundTexture";
import { Rng } from "../src/util/Rng";
import type { Range, Scenario } from "./Scenario";
import { buildSky } from "./SkyModel";
import { CLASS_BRANCH, CLASS_POLE_TRUNK, CLASS_WIRE, type ObjectKind, type Segments, type StructureClass, type World, type WorldObject } from "./World";

/** Straight segments per conductor span (the catenary is drawn and collided as this polyline). */
export const SEGMENTS_PER_SPAN = 16;
/** How far each power line extends to both sides of the path, m. */
const LINE_HALF_LENGTH_M = 130;

export type BuildWorldOptions = { perturbed?: boolean };

const pick = (rng: Rng, r: Range): number => (r.min === r.max ? r.min : rng.uniform(r.min, r.max));
const pickInt = (rng: Rng, r: Range): number => (r.min === r.max ? r.min : rng.int(Math.ceil(r.min), Math.floor(r.max)));

class SegmentBuilder {
  a: number[] = [];
  b: number[] = [];
  radius: number[] = [];
  cls: number[] = [];
  object: number[] = [];
  objects: WorldObject[] = [];
  private current: WorldObject | undefined;

  begin(kind: ObjectKind, cls: StructureClass, albedo: [number, number, number], specular: number): void {
    this.current = { id: this.objects.length, kind, cls, albedo, specular, firstSegment: this.radius.length, segmentCount: 0 };
    this.objects.push(this.current);
  }

  add(ax: number, ay: number, az: number, bx: number, by: number, bz: number, r: number): void {
    const o = this.current;
    if (o === undefined) throw new Error("SegmentBuilder.add before begin");
    this.a.push(ax, ay, az);
    this.b.push(bx, by, bz);
    this.radius.push(r);
    this.cls.push(o.cls);
    this.object.push(o.id);
    o.segmentCount++;
  }

  finish(): Segments {
    return {
      count: this.radius.length,
      a: Float64Array.from(this.a),
      b: Float64Array.from(this.b),
      radius: Float64Array.from(this.radius),
      cls: Uint8Array.from(this.cls),
      object: Int32Array.from(this.object),
    };
  }
}

export function buildWorld(scenario: Scenario, seed: number, options: BuildWorldOptions = {}): World {
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) throw new RangeError(`seed=${seed}, expected an integer in [0, 4294967295]`);
  const perturbed = options.perturbed ?? false;
  const thickness = perturbed ? scenario.perturbation.wireThicknessScale : 1;
  const layout = Rng.derive(seed, 1);
  const sb = new SegmentBuilder();

  const length = pick(layout, scenario.path.length_m);
  const altitude = pick(layout, scenario.path.altitude_m);
  const start = { x: pick(layout, scenario.path.lateralOffset_m), y: 0, z: altitude, yaw_rad: Math.PI / 2 };
  const goal = { x: pick(layout, scenario.path.lateralOffset_m), y: length, z: altitude };

  // Power lines crossing the path.
  const w = scenario.wires;
  const lines = pickInt(layout, w.lines);
  const pts = new Float64Array(3 * (SEGMENTS_PER_SPAN + 1));
  for (let li = 0; li < lines; li++) {
    const along = lines === 1 ? pick(layout, w.alongPath) : w.alongPath.min + ((li + layout.uniform(0.2, 0.8)) / lines) * (w.alongPath.max - w.alongPath.min);
    addPowerLine(sb, layout, scenario, start.x, along * length, thickness, pts);
  }

  // Trees.
  const tr = scenario.trees;
  const trees = pickInt(layout, tr.count);
  for (let i = 0; i < trees; i++) {
    const onPath = layout.chance(tr.onPathFraction);
    const side = layout.chance(0.5) ? 1 : -1;
    const x = onPath ? start.x + layout.uniform(-3, 3) : start.x + side * pick(layout, tr.lateralSpread_m);
    const y = layout.uniform(onPath ? 0.2 * length : -0.2 * length, onPath ? 0.95 * length : 1.2 * length);
    addTree(sb, layout, scenario, x, y, thickness);
  }

  const segments = sb.finish();
  const { ground, sky, exposure } = buildLooks(scenario, seed, perturbed);
  const windRng = Rng.derive(seed, 3);
  const windSpeed = pick(windRng, scenario.wind.meanSpeed_m_s);
  const windDir = (pick(windRng, scenario.wind.direction_deg) * Math.PI) / 180;
  return {
    seed,
    scenario,
    perturbed,
    segments,
    objects: sb.objects,
    ground,
    sky,
    start,
    goal,
    wind: {
      mean: [windSpeed * Math.cos(windDir), windSpeed * Math.sin(windDir), 0],
      gustStd_m_s: pick(windRng, scenario.wind.gustStd_m_s),
      gustTimeConstant_s: scenario.wind.gustTimeConstant_s,
    },
    exposure,
  };
}

/**
 * One power line crossing the path at (x0, y0): poles with a cross-arm every pole spacing over
 * LINE_HALF_LENGTH_M to both sides, and its conductors strung between them as catenaries.
 */
function addPowerLine(sb: SegmentBuilder, rng: Rng, scenario: Scenario, x0: number, y0: number, thickness: number, pts: Float64Array): void {
  const w = scenario.wires;
  const angle = (pick(rng, w.crossingAngle_deg) * Math.PI) / 180;
  const ux = Math.cos(angle);
  const uy = Math.sin(angle);
  const px = -uy; // horizontal normal to the line
  const py = ux;
  const height = pick(rng, w.height_m);
  const spacing = pick(rng, w.poleSpacing_m);
  const phase = rng.uniform(0.15, 0.85) * spacing;
  const conductors = pickInt(rng, w.conductorsPerLine);
  const poleRadius = pick(rng, scenario.poles.radius_m);
  const poleGrey = pick(rng, scenario.poles.albedo);
  const wooden = rng.chance(0.4);
  const poleAlbedo: [number, number, number] = wooden ? [poleGrey * 1.1, poleGrey * 0.8, poleGrey * 0.55] : [poleGrey, poleGrey, poleGrey * 1.02];
  const armHalf = 0.9 + 0.5 * conductors;
  // Conductor attachment offsets (along the normal, up) relative to the pole top: one cross-arm,
  // with a fourth conductor as an earth wire on the pole top.
  const offsets: Array<[number, number]> = [];
  const onArm = Math.min(conductors, 3);
  for (let k = 0; k < onArm; k++) offsets.push([onArm === 1 ? 0 : -armHalf + (2 * armHalf * k) / (onArm - 1), 0]);
  for (let k = onArm; k < conductors; k++) offsets.push([0, 1.2 + 0.6 * (k - onArm)]);
  const poleTs: number[] = [];
  for (let t = phase - Math.ceil(LINE_HALF_LENGTH_M / spacing) * spacing; t <= LINE_HALF_LENGTH_M + spacing; t += spacing) poleTs.push(t);
  const poleTop = height + 0.3 + (conductors > 3 ? 1.2 + 0.6 * (conductors - 4) + 0.3 : 0);
  for (const t of poleTs) {
    const bx = x0 + ux * t;
    const by = y0 + uy * t;
    sb.begin("pole", CLASS_POLE_TRUNK, poleAlbedo, 0.05);
    sb.add(bx, by, 0, bx, by, poleTop, poleRadius);
    if (onArm > 1) sb.add(bx - px * (armHalf + 0.2), by - py * (armHalf + 0.2), height - 0.15, bx + px * (armHalf + 0.2), by + py * (armHalf + 0.2), height - 0.15, poleRadius * 0.5);
  }
  for (let c = 0; c < conductors; c++) {
    const radius = pick(rng, w.radius_m) * thickness;
    const grey = pick(rng, w.albedo);
    const albedo: [number, number, number] = [grey, grey, grey * 1.03];
    const sag = pick(rng, w.sag_m);
    const off = offsets[c] ?? [0, 0];
    for (let s = 0; s + 1 < poleTs.length; s++) {
      const t0 = poleTs[s]!;
      const t1 = poleTs[s + 1]!;
      const p0: [number, number, number] = [x0 + ux * t0 + px * off[0], y0 + uy * t0 + py * off[0], height + off[1]];
      const p1: [number, number, number] = [x0 + ux * t1 + px * off[0], y0 + uy * t1 + py * off[0], height + off[1]];
      catenaryPoints(p0, p1, sag * rng.uniform(0.9, 1.1), SEGMENTS_PER_SPAN, pts);
      sb.begin("wire", CLASS_WIRE, albedo, 0.3 + 0.5 * grey);
      for (let i = 0; i < SEGMENTS_PER_SPAN; i++) {
        sb.add(pts[3 * i]!, pts[3 * i + 1]!, pts[3 * i + 2]!, pts[3 * i + 3]!, pts[3 * i + 4]!, pts[3 * i + 5]!, radius);
      }
    }
  }
}

/**
 * The ground texture, the sky and the exposure. Separate streams for the ground texture and for
 * the sky and lighting, so a different texture size (e.g. the small one the Gazebo export builds)
 * does not change the sun or the exposure.
 */
function buildLooks(scenario: Scenario, seed: number, perturbed: boolean): Pick<World, "ground" | "sky" | "exposure"> {
  const looks = Rng.derive(seed, 2);
  const skyRng = Rng.derive(seed, 8);
  const l = scenario.lighting;
  const lightingScale = perturbed ? scenario.perturbation.lightingScale : 1;
  const ground = buildGround(looks, {
    texel_m: scenario.ground.texelSize_m,
    size: scenario.ground.textureSize,
    fields: scenario.ground.fields,
    roads: scenario.ground.roads,
    buildings: scenario.ground.buildings,
    foliage: scenario.ground.foliage,
    water: scenario.ground.water,
    brightness: pick(looks, scenario.ground.brightness),
  });
  const exposure = pick(skyRng, l.exposure) * lightingScale;
  const sky = buildSky(skyRng, {
    sunElevation_deg: pick(skyRng, l.sunElevation_deg),
    sunAzimuth_deg: pick(skyRng, l.sunAzimuth_deg),
    cloudCover: pick(skyRng, l.cloudCover),
    visibility_m: pick(skyRng, l.visibility_m),
    skyBrightness: pick(skyRng, l.skyBrightness),
  });
  return { ground, sky, exposure };
}

function addTree(sb: SegmentBuilder, rng: Rng, scenario: Scenario, x: number, y: number, thickness: number): void {
  const tr = scenario.trees;
  const height = pick(rng, tr.height_m);
  const trunkR = pick(rng, tr.trunkRadius_m);
  const grey = pick(rng, tr.albedo);
  const albedo: [number, number, number] = [grey * 1.15, grey * 0.95, grey * 0.75];
  // Trunk: three stacked cylinders, tapering and leaning slightly.
  const lean = [rng.uniform(-0.04, 0.04), rng.uniform(-0.04, 0.04)] as const;
  const trunkTop = height * rng.uniform(0.7, 0.85);
  sb.begin("trunk", CLASS_POLE_TRUNK, albedo, 0);
  const parts = 3;
  for (let k = 0; k < parts; k++) {
    const z0 = (trunkTop * k) / parts;
    const z1 = (trunkTop * (k + 1)) / parts;
    sb.add(x + lean[0] * z0, y + lean[1] * z0, z0, x + lean[0] * z1, y + lean[1] * z1, z1, trunkR * (1 - 0.45 * (k / parts)));
  }
  sb.begin("branches", CLASS_BRANCH, albedo, 0);
  const branches = pickInt(rng, tr.branchesPerTree);
  // Side branches thin out by 0.6 per level but stay within the scenario's branch radius range.
  const minBranch = tr.branchRadius_m.min * thickness;
  for (let b = 0; b < branches; b++) {
    const zf = rng.uniform(0.35, 1);
    const z = trunkTop * zf;
    const az = rng.uniform(0, 2 * Math.PI);
    const elev = rng.uniform(0.25, 1.1);
    const len = pick(rng, tr.branchLength_m) * (1.15 - 0.5 * zf);
    const r = Math.max(0.002, pick(rng, tr.branchRadius_m) * thickness);
    growBranch(sb, rng, x + lean[0] * z, y + lean[1] * z, z, az, elev, len, r, 2, minBranch);
  }
  // The crown: a leader continuing the trunk.
  growBranch(sb, rng, x + lean[0] * trunkTop, y + lean[1] * trunkTop, trunkTop, rng.uniform(0, 6.28), 1.35, height - trunkTop, Math.min(trunkR * 0.35, tr.branchRadius_m.max * thickness), 2, minBranch);
}

/** A branch as two bent segments, with `depth` levels of side branches (radius x 0.6 each level). */
function growBranch(sb: SegmentBuilder, rng: Rng, x: number, y: number, z: number, az: number, elev: number, len: number, r: number, depth: number, minRadius: number): void {
  let cx = x;
  let cy = y;
  let cz = z;
  let a = az;
  let e = elev;
  const pieces = 2;
  for (let k = 0; k < pieces; k++) {
    const l = len / pieces;
    const nx = cx + l * Math.cos(e) * Math.cos(a);
    const ny = cy + l * Math.cos(e) * Math.sin(a);
    const nz = Math.max(0.2, cz + l * Math.sin(e));
    sb.add(cx, cy, cz, nx, ny, nz, Math.max(minRadius, r * (1 - 0.25 * k)));
    if (depth > 0) {
      const forks = rng.int(0, 2);
      for (let f = 0; f < forks; f++) {
        const t = rng.uniform(0.3, 1);
        growBranch(
          sb,
          rng,
          cx + (nx - cx) * t,
          cy + (ny - cy) * t,
          cz + (nz - cz) * t,
          a + rng.uniform(-1.1, 1.1),
          e + rng.uniform(-0.2, 0.6),
          l * rng.uniform(0.5, 0.9),
          Math.max(minRadius, r * 0.6),
          depth - 1,
          minRadius,
        );
      }
    }
    cx = nx;
    cy = ny;
    cz = nz;
    a += rng.uniform(-0.35, 0.35);
    e += rng.uniform(-0.25, 0.15);
  }
}
