/**
 * Visible-only labels and depth (sim/Renderer.ts `RenderTarget.visibleMask` / `depth`, issue 12):
 * on a real default-scenario frame the visible mask is a subset of the mask, depth is set exactly
 * on labelled pixels and back-projects onto a structure of the labelled class; `visibleContrast`
 * thresholds visibility (0: everything labelled is visible, huge: nothing is); and in hand-built
 * worlds a structure with its background's colour is labelled but not visible, and depth is the
 * perspective-correct optical-axis Z.
 */
import {
  CLASS_POLE_TRUNK,
  CLASS_WIRE,
  Renderer,
  cameraRotation,
  createSimulation,
  loadScenarioFile,
  makeCamera,
  pointSegmentDistance,
  seedsOfSplit,
  type CameraModel,
  type CameraPose,
  type RenderTarget,
  type Simulation,
  type StructureClass,
  type World,
  type WorldObject,
} from "../../sim";
import { SimEnvironment } from "../../src/harness/data/simEnvironment";
import { emptyWorld } from "./fixtures";

type Truth = { rgb: Uint8Array; mask: Uint8Array; visibleMask: Uint8Array; depth: Float32Array };

function makeTruth(camera: CameraModel): Truth {
  const n = camera.width * camera.height;
  return { rgb: new Uint8Array(n * 3), mask: new Uint8Array(n), visibleMask: new Uint8Array(n), depth: new Float32Array(n) };
}

const count = (a: Uint8Array): number => a.reduce((s, v) => s + (v !== 0 ? 1 : 0), 0);
const sameBytes = (a: ArrayBufferView, b: ArrayBufferView): boolean =>
  Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));

const scenario = loadScenarioFile("default");
const [seed] = seedsOfSplit("train", 1) as [number];
type DefaultFrame = { sim: Simulation; pose: CameraPose; frame: Truth };
let defaultFrameCache: DefaultFrame | undefined;

/** The first camera frame of the default scenario's first training seed, with its truth; rendered once for the describes below. */
function defaultFrame(): DefaultFrame {
  if (defaultFrameCache === undefined) {
    const sim = createSimulation(scenario, { seed, split: "train" });
    const frame = makeTruth(sim.camera);
    sim.renderCamera(frame);
    // The pose of that render (the drone has not moved), for renderers built directly below.
    const pose = sim.cameraPose({ x: 0, y: 0, z: 0, yaw: 0, pitch: 0, roll: 0 });
    defaultFrameCache = { sim, pose, frame };
  }
  return defaultFrameCache;
}

describe("visibleMask and depth on a default-scenario frame", () => {
  let sim: Simulation;
  let pose: CameraPose;
  let frame: Truth;
  beforeAll(() => {
    ({ sim, pose, frame } = defaultFrame());
  });

  it("labels visible pixels only where the mask has the same class, and drops some faint ones", () => {
    const { mask, visibleMask } = frame;
    let notSubset = 0;
    for (let i = 0; i < mask.length; i++) if (visibleMask[i] !== 0 && visibleMask[i] !== mask[i]) notSubset++;
    expect(notSubset).toBe(0);
    // Not vacuous: the frame has visible structure, and the default threshold (3 grey levels for
    // noiseStd 2) removes some labelled pixels (sub-pixel far wires).
    expect(count(visibleMask)).toBeGreaterThan(0);
    expect(count(visibleMask)).toBeLessThan(count(mask));
  });

  it("has depth > 0 exactly on the labelled pixels, between the near plane and the farthest structure", () => {
    const { mask, depth } = frame;
    // Upper bound: the optical Z of a point on a segment's centre line is at most its Euclidean
    // distance from the camera, at most the farthest segment end (segments are straight).
    const seg = sim.world.segments;
    let farthest = 0;
    for (let i = 0; i < seg.count; i++) {
      for (const p of [seg.a, seg.b]) farthest = Math.max(farthest, Math.hypot(p[3 * i]! - pose.x, p[3 * i + 1]! - pose.y, p[3 * i + 2]! - pose.z));
    }
    expect(farthest).toBeLessThan(2000);
    let mismatched = 0;
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = 0; i < mask.length; i++) {
      const d = depth[i]!;
      if ((mask[i] !== 0) !== d > 0 || !Number.isFinite(d)) mismatched++;
      if (mask[i] !== 0) {
        lo = Math.min(lo, d);
        hi = Math.max(hi, d);
      }
    }
    expect(mismatched).toBe(0);
    expect(lo).toBeGreaterThanOrEqual(0.1);
    // float32 storage: relative rounding 6e-8.
    expect(hi).toBeLessThanOrEqual(farthest * (1 + 1e-6));
  });

  it("back-projects every labelled pixel at its depth onto a structure of the labelled class", () => {
    // The pixel centre (u, v) at optical depth Z is the point ((u - cx) Z / fx, (v - cy) Z / fy, Z)
    // in the optical frame (sim/Renderer.ts projects with x = fx X / Z + cx + 0.5). A labelled
    // pixel lies within the projected band of the structure (half width = radius in metres) plus
    // at most one pixel of centre-line labelling and half a pixel of sampling, so its
    // back-projection is within radius + 1.5 px * Z / fx of a segment of that class. Measured
    // worst case on this frame: 0.64 px.
    const cam = sim.camera;
    const R = cameraRotation(pose.yaw, pose.pitch, pose.roll, cam, new Float64Array(9));
    const seg = sim.world.segments;
    let worst_px = 0;
    for (let i = 0; i < frame.mask.length; i++) {
      const cls = frame.mask[i]!;
      if (cls === 0) continue;
      const u = i % cam.width;
      const v = Math.floor(i / cam.width);
      const Z = frame.depth[i]!;
      const X = ((u - cam.cx) / cam.fx) * Z;
      const Y = ((v - cam.cy) / cam.fy) * Z;
      const px = pose.x + R[0]! * X + R[1]! * Y + R[2]! * Z;
      const py = pose.y + R[3]! * X + R[4]! * Y + R[5]! * Z;
      const pz = pose.z + R[6]! * X + R[7]! * Y + R[8]! * Z;
      let best = Infinity;
      for (let k = 0; k < seg.count; k++) {
        if (seg.cls[k] !== cls) continue;
        const d = pointSegmentDistance(px, py, pz, seg.a[3 * k]!, seg.a[3 * k + 1]!, seg.a[3 * k + 2]!, seg.b[3 * k]!, seg.b[3 * k + 1]!, seg.b[3 * k + 2]!) - seg.radius[k]!;
        best = Math.min(best, d);
      }
      worst_px = Math.max(worst_px, (best * cam.fx) / Z);
    }
    expect(worst_px).toBeLessThan(1.5);
  });
});

describe("visibleMask and depth on a default-scenario frame: direct Renderers, SimEnvironment and bad arguments", () => {
  let sim: Simulation;
  let pose: CameraPose;
  let frame: Truth;
  beforeAll(() => {
    ({ sim, pose, frame } = defaultFrame());
  });

  /** A renderer built like Simulation builds its own (sim/Simulation.ts), plus `visibleContrast`. */
  function renderDirect(options: { noiseStd?: number; visibleContrast?: number } = {}): Truth {
    const target = makeTruth(sim.camera);
    const renderer = new Renderer(sim.world, sim.camera, {
      noiseStd: options.noiseStd ?? scenario.camera.noiseStd,
      noiseSeed: seed,
      ...(options.visibleContrast === undefined ? {} : { visibleContrast: options.visibleContrast }),
    });
    renderer.render(pose, target);
    return target;
  }

  it("is reproduced by a Renderer built like Simulation's, and visibleContrast thresholds it", () => {
    const same = renderDirect();
    expect(sameBytes(same.rgb, frame.rgb)).toBe(true);
    expect(sameBytes(same.mask, frame.mask)).toBe(true);
    expect(sameBytes(same.visibleMask, frame.visibleMask)).toBe(true);
    expect(sameBytes(same.depth, frame.depth)).toBe(true);

    // Any change counts at visibleContrast 0 (every labelled pixel's change is > 0 here).
    const all = renderDirect({ visibleContrast: 0 });
    expect(sameBytes(all.visibleMask, all.mask)).toBe(true);
    // No change reaches 1e6 grey levels: nothing is visible, the mask is untouched.
    const none = renderDirect({ visibleContrast: 1e6 });
    expect(count(none.visibleMask)).toBe(0);
    expect(sameBytes(none.mask, frame.mask)).toBe(true);
    // The threshold does not change the image.
    expect(sameBytes(none.rgb, frame.rgb)).toBe(true);
  });

  it("defaults visibleContrast to max(3, 1.5 * noiseStd)", () => {
    // noiseStd 2 (the scenario's): default 3, the frame above.
    expect(sameBytes(renderDirect({ visibleContrast: 3 }).visibleMask, frame.visibleMask)).toBe(true);
    // noiseStd 4: default 6, not 3 (the two thresholds give different masks on this frame, so the
    // comparison can tell them apart), and a higher threshold keeps a subset.
    const d4 = renderDirect({ noiseStd: 4 }).visibleMask;
    const c6 = renderDirect({ noiseStd: 4, visibleContrast: 6 }).visibleMask;
    const c3 = renderDirect({ noiseStd: 4, visibleContrast: 3 }).visibleMask;
    expect(sameBytes(d4, c6)).toBe(true);
    expect(sameBytes(d4, c3)).toBe(false);
    expect(count(c6)).toBeLessThan(count(c3));
    for (let i = 0; i < c6.length; i++) if (c6[i] !== 0 && c6[i] !== c3[i]) throw new Error(`pixel ${i}: visible at contrast 6 but not at 3`);
  });

  it("comes through SimEnvironment.render(rgb, mask, { visibleMask, depth })", () => {
    const env = new SimEnvironment(scenario, seed, "train", false);
    const t = makeTruth(sim.camera);
    env.render(t.rgb, t.mask, { visibleMask: t.visibleMask, depth: t.depth });
    // A fresh simulation of the same seed renders the same first frame.
    expect(sameBytes(t.mask, frame.mask)).toBe(true);
    expect(sameBytes(t.visibleMask, frame.visibleMask)).toBe(true);
    expect(sameBytes(t.depth, frame.depth)).toBe(true);
  });

  it("rejects visibleMask or depth without a mask, short buffers and bad visibleContrast with errors naming them", () => {
    const n = sim.camera.width * sim.camera.height;
    const rgb = new Uint8Array(n * 3);
    const renderer = sim.renderer;
    expect(() => renderer.render(pose, { rgb, visibleMask: new Uint8Array(n) })).toThrow(RangeError);
    expect(() => renderer.render(pose, { rgb, visibleMask: new Uint8Array(n) })).toThrow(/visibleMask and depth need mask/);
    expect(() => renderer.render(pose, { rgb, depth: new Float32Array(n) })).toThrow(/visibleMask and depth need mask/);
    expect(() => renderer.render(pose, { rgb, mask: new Uint8Array(n), visibleMask: new Uint8Array(10) })).toThrow(`visibleMask.length=10, expected >= ${n}`);
    expect(() => renderer.render(pose, { rgb, mask: new Uint8Array(n), depth: new Float32Array(10) })).toThrow(`depth.length=10, expected >= ${n}`);
    expect(() => new Renderer(sim.world, sim.camera, { visibleContrast: -1 })).toThrow("visibleContrast=-1, expected >= 0");
    expect(() => new Renderer(sim.world, sim.camera, { visibleContrast: Number.NaN })).toThrow("visibleContrast=NaN, expected >= 0");
  });
});

// The empty world of the fixtures (no wires, no trees, no clouds, exposure 1), with haze switched off (visibility 1e9 m: the haze factor is exactly 1 at any depth) so a
// structure's colour depends only on its albedo and its direction relative to the sun.
const empty = (() => {
  const w = emptyWorld();
  return { ...w, sky: { ...w.sky, visibility_m: 1e9 } };
})();

type Part = { a: [number, number, number]; b: [number, number, number]; radius: number; object: number };
type Obj = { cls: StructureClass; albedo: number };

function makeWorld(objs: readonly Obj[], parts: readonly Part[]): World {
  const n = parts.length;
  const segments = { count: n, a: new Float64Array(3 * n), b: new Float64Array(3 * n), radius: new Float64Array(n), cls: new Uint8Array(n), object: new Int32Array(n) };
  parts.forEach((p, i) => {
    segments.a.set(p.a, 3 * i);
    segments.b.set(p.b, 3 * i);
    segments.radius[i] = p.radius;
    segments.cls[i] = objs[p.object]!.cls;
    segments.object[i] = p.object;
  });
  const objects: WorldObject[] = objs.map((o, id) => {
    const first = parts.findIndex((p) => p.object === id);
    return {
      id,
      kind: o.cls === CLASS_WIRE ? "wire" : "pole",
      cls: o.cls,
      albedo: [o.albedo, o.albedo, o.albedo],
      specular: 0,
      firstSegment: first,
      segmentCount: parts.filter((p) => p.object === id).length,
    };
  });
  return { ...empty, segments, objects };
}

// Level camera at 10 m looking north (yaw pi/2): optical Z is the world y distance, optical X
// the world x offset (sim/Camera.ts: x right = east when facing north).
const levelCamera = makeCamera(256, 256, 90, 0);
const levelPose: CameraPose = { x: 0, y: 0, z: 10, yaw: Math.PI / 2, pitch: 0, roll: 0 };
function renderLevel(world: World): Truth {
  const t = makeTruth(levelCamera);
  const target: RenderTarget = t;
  new Renderer(world, levelCamera, { noiseStd: 0 }).render(levelPose, target);
  return t;
}

describe("visibility and depth in hand-built worlds", () => {
  it("does not count a wire whose colour equals its background as visible", () => {
    // A wide band (r = 2 m at 40 m: 12.8 px) and, in front of it at the same height, a wire
    // (r = 5 cm at 10 m: 1.3 px), both horizontal along x: same orientation to the sun, so with
    // equal albedo (and no haze) they have the same colour and the wire is camouflaged.
    const scene = (bandAlbedo: number, wireAlbedo: number): World =>
      makeWorld(
        [
          { cls: CLASS_POLE_TRUNK, albedo: bandAlbedo },
          { cls: CLASS_WIRE, albedo: wireAlbedo },
        ],
        [
          { a: [-500, 40, 10], b: [500, 40, 10], radius: 2, object: 0 },
          { a: [-500, 10, 10], b: [500, 10, 10], radius: 0.05, object: 1 },
        ],
      );
    const camo = renderLevel(scene(0.3, 0.3));
    const contrast = renderLevel(scene(0.8, 0.05));
    // The geometry is the same, so the masks and depths are.
    expect(sameBytes(camo.mask, contrast.mask)).toBe(true);
    expect(sameBytes(camo.depth, contrast.depth)).toBe(true);
    let wire = 0;
    let band = 0;
    const wrong: string[] = [];
    for (let i = 0; i < camo.mask.length; i++) {
      if (camo.mask[i] === CLASS_WIRE) {
        wire++;
        // Camouflaged: labelled, not visible (not even as the band behind it: nearer writes win);
        // a dark wire on a bright band is visible. Depth: the wire's y distance, 10 m.
        if (camo.visibleMask[i] !== 0 || contrast.visibleMask[i] !== CLASS_WIRE || Math.abs(camo.depth[i]! - 10) > 1e-5) {
          wrong.push(`wire pixel ${i}: visible ${camo.visibleMask[i]} / ${contrast.visibleMask[i]}, depth ${camo.depth[i]}`);
        }
      } else if (camo.mask[i] === CLASS_POLE_TRUNK) {
        band++;
        // The band is seen against the sky in both scenes, 40 m away.
        if (camo.visibleMask[i] !== CLASS_POLE_TRUNK || Math.abs(camo.depth[i]! - 40) > 4e-5) {
          wrong.push(`band pixel ${i}: visible ${camo.visibleMask[i]}, depth ${camo.depth[i]}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    // Both are centred on image row 128.0 (camera height). Wire: w = 2 r f / Z = 1.28 px, band
    // [127.36, 128.64]: rows 127 and 128 (coverage 0.64 >= 0.5). Band: w = 12.8 px, [121.6, 134.4]:
    // rows 122..133 fully covered, minus the two wire rows. Over all 256 columns.
    expect(wire).toBe(256 * 2);
    expect(band).toBe(256 * 10);
  });

  it.each([
    ["left to right", [-50, 10, 10], [50, 30, 10]],
    ["right to left (endpoints swapped)", [50, 30, 10], [-50, 10, 10]],
] as const)("stores the perspective-correct optical depth along a slanted wire drawn %s (1/Z interpolated, not Z)", (_name, a, b) => {
    // A wire from (-50, 10) to (50, 30) at camera height: X = -50 + 100 s, Z = 10 + 20 s. The ray
    // through the centre of column u has X / Z = k = (u - cx) / fx, so s = (50 + 10 k) / (100 - 20 k)
    // and Z = 10 + 20 s. Interpolating Z linearly in the image would be off by metres mid-screen.
    const world = makeWorld([{ cls: CLASS_WIRE, albedo: 0.05 }], [{ a: [...a], b: [...b], radius: 0.02, object: 0 }]);
    const t = renderLevel(world);
    let labelled = 0;
    let worst = 0;
    for (let i = 0; i < t.mask.length; i++) {
      if (t.mask[i] !== CLASS_WIRE) continue;
      labelled++;
      const k = ((i % 256) - levelCamera.cx) / levelCamera.fx;
      const s = (50 + 10 * k) / (100 - 20 * k);
      const Z = 10 + 20 * s;
      worst = Math.max(worst, Math.abs(t.depth[i]! - Z) / Z);
    }
    // The wire spans the whole image width (one label per column at least).
    expect(labelled).toBeGreaterThanOrEqual(256);
    // float32 storage; measured 5.6e-8.
    expect(worst).toBeLessThan(1e-6);
  });
});

describe("visibility in hand-built worlds: the contrast threshold, overlapping segments and noise", () => {
  it("compares the mean absolute channel change with visibleContrast", () => {
    // A band fully covering pixel (128, 128) (r = 2 m at 40 m: rows 122..133) against the sky.
    // Its change there is the mean over r, g, b of |band colour - sky colour|; measured from two
    // noise-free renders (with and without the band) it is known to within the 8-bit rounding of
    // the band colour (0.5). The pixel is visible for a threshold 1 below that change and not for
    // one 1 above (a sum over channels instead of a mean would be 3 times larger: visible at both).
    const band = makeWorld([{ cls: CLASS_POLE_TRUNK, albedo: 0.3 }], [{ a: [-500, 40, 10], b: [500, 40, 10], radius: 2, object: 0 }]);
    const p = 128 * 256 + 128;
    const sky = renderLevel(makeWorld([], [])).rgb;
    const covered = renderLevel(band).rgb;
    let change = 0;
    for (let c = 0; c < 3; c++) change += Math.abs(covered[3 * p + c]! - sky[3 * p + c]!) / 3;
    // A clear contrast, so that the test can tell a mean from a sum.
    expect(change).toBeGreaterThan(10);
    const at = (visibleContrast: number): number => {
      const t = makeTruth(levelCamera);
      new Renderer(band, levelCamera, { noiseStd: 0, visibleContrast }).render(levelPose, t);
      expect(t.mask[p]).toBe(CLASS_POLE_TRUNK);
      return t.visibleMask[p]!;
    };
    expect(at(change - 1)).toBe(CLASS_POLE_TRUNK);
    expect(at(change + 1)).toBe(0);
  });

  // Regression: a polyline's second segment that only grazes a pixel the first segment already
  // covered used to re-measure the contrast against the structure's own colour and overwrite the
  // pixel's visible label with 0.
  it("keeps a pixel fully covered by a pole visible where the pole's next segment grazes it", () => {
    // A vertical pole 20 m ahead, r = 0.2 m (2.6 px), drawn as two segments joined at a height
    // whose image row is 130.02: the lower segment covers 98 % of row 130, the upper one 2 %.
    // Rows: y = 128 + 6.4 (10 - z) (fy = 128, Z = 20).
    const zJoint = 10 - (130.02 - 128) / 6.4;
    const world = makeWorld(
      [{ cls: CLASS_POLE_TRUNK, albedo: 0.05 }],
      [
        { a: [0, 20, 0], b: [0, 20, zJoint], radius: 0.2, object: 0 },
        { a: [0, 20, zJoint], b: [0, 20, 20], radius: 0.2, object: 0 },
      ],
    );
    const t = renderLevel(world);
    const p = 130 * 256 + 127;
    // The pixel is the pole's dark colour against a bright sky (measured 11 vs about 97)...
    expect(t.mask[p]).toBe(CLASS_POLE_TRUNK);
    expect(t.rgb[3 * p]!).toBeLessThan(40);
    // ...so it is visible.
    expect(t.visibleMask[p]).toBe(CLASS_POLE_TRUNK);
  });

  // As documented (RenderTarget.visibleMask): the change is measured against the background pixel
  // as rendered, noise included, so a structure of exactly its background's colour reads as
  // visible only where the noise alone pushed the background past the threshold (3 grey levels
  // = 1.5 sigma for noiseStd 2: a few percent of its pixels, 59 of 2048 when this was written).
  it("keeps most of a camouflaged structure invisible when the image is noisy (noise alone rarely passes the threshold)", () => {
    // The camouflage scene of the test above with a wide near wire (r = 0.3 m at 10 m: 7.7 px),
    // so most of its pixels are fully covered and their change before noise is under 1.5 levels.
    const world = makeWorld(
      [
        { cls: CLASS_POLE_TRUNK, albedo: 0.3 },
        { cls: CLASS_WIRE, albedo: 0.3 },
      ],
      [
        { a: [-500, 40, 10], b: [500, 40, 10], radius: 2, object: 0 },
        { a: [-500, 10, 10], b: [500, 10, 10], radius: 0.3, object: 1 },
      ],
    );
    const t = makeTruth(levelCamera);
    new Renderer(world, levelCamera, { noiseStd: 2, noiseSeed: 5 }).render(levelPose, t);
    let wire = 0;
    let visible = 0;
    for (let i = 0; i < t.mask.length; i++) {
      if (t.mask[i] !== CLASS_WIRE) continue;
      wire++;
      if (t.visibleMask[i] !== 0) visible++;
    }
    expect(wire).toBe(256 * 8);
    expect(visible / wire).toBeLessThan(0.1);
  });
});
