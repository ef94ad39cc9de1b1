/**
 * The camera renderer. Per frame:
 * 1. Background, per pixel: the view ray d(u, v) = c0 + u cu + v cv (linear in the pixel, no
 *    per-pixel matrix product). Rays going down hit the ground plane z = 0 at t = -z_cam / d_z and
 *    sample the ground texture's mip level chosen from the pixel footprint (bilinear), faded into
 *    haze with distance; rays going up get the analytic sky (gradient, sun glow and disk, clouds
 *    on a plane).
 * 2. Thin structures: objects (a conductor span, a tree's branches, a trunk, a pole) are culled by
 *    their bounding spheres and sorted far to near by centre depth (painter's algorithm per object:
 *    no per-pixel depth test); each segment is transformed to the optical frame, clipped at the
 *    near plane, projected and rasterised as a line whose projected width is
 *    w = 2 r f / z px, interpolated along the segment. Coverage-based anti-aliasing: along the
 *    minor axis each pixel gets the exact overlap of the band [c - w/2, c + w/2] (scaled by
 *    1/cos(angle)) with the pixel; when w < 1 px the band is 1 px wide and its intensity is scaled
 *    by w, so a 10 mm wire at 20 m is a faint 1 px line. Nothing is ray-traced per pixel.
 * 3. Ground truth in the same pass: a pixel is labelled with a structure's class where the
 *    structure covers at least half of the pixel's area, and every pixel the structure's centre
 *    line passes through is labelled whatever the width (so sub-pixel wires stay continuous in the
 *    mask). Nearer structures overwrite farther ones. 2D boxes are the extents of the pixels each
 *    object labelled (a box is not shrunk where a nearer object later overwrote its labels).
 * 4. Exposure, 8-bit quantisation and additive Gaussian noise (from a precomputed table).
 * All buffers are allocated in the constructor; `render` allocates nothing.
 */
import type { CameraModel } from "./Camera";
import { cameraRotation } from "./Camera";
import { GRAIN_PER_TEXEL, GRAIN_SIZE } from "./GroundTexture";
import { Rng } from "../src/util/Rng";
import type { Segments, World, WorldObject } from "./World";

/** Camera pose: optical centre (ENU, m) and body attitude (ZYX yaw, pitch, roll, rad, FLU). */
export type CameraPose = { x: number; y: number; z: number; yaw: number; pitch: number; roll: number };

/** Per-object 2D boxes of one frame (pixel indices, inclusive), preallocated per world. */
export type BoxList = {
  count: number;
  objectId: Int32Array;
  cls: Uint8Array;
  x0: Int32Array;
  y0: Int32Array;
  x1: Int32Array;
  y1: Int32Array;
  /**
   * Label writes of the object: an upper bound of its labelled pixels (pixels at segment joints
   * count twice, and later overwrites by nearer objects are not subtracted).
   */
  pixels: Int32Array;
};

export type RenderTarget = {
  /** width * height * 3 bytes, rgb8 row-major. */
  rgb: Uint8Array;
  /** width * height class labels {0 background, 1 wire, 2 branch, 3 pole/trunk}, optional. */
  mask?: Uint8Array;
  /** Filled when given (and mask is given). */
  boxes?: BoxList;
  /**
   * width * height class labels of the *visible* obstacle pixels only (mask given too): a labelled
   * pixel counts when the structure changes it by more than the renderer's `visibleContrast`
   * (mean absolute change over the three channels, 8-bit units, of the pixel as rendered so far:
   * the background already carries its sensor noise, so a structure of the background's own
   * colour can read as visible where the noise pushed the background away from it), else 0. A wire
   * whose colour matches its background is in `mask` but not here (issue 12: labels count only
   * what the camera can see).
   */
  visibleMask?: Uint8Array;
  /**
   * width * height optical-axis depth Z (m) of the structure labelled at each pixel of `mask`,
   * 0 where `mask` is 0 (mask given too). The near-threat label of a cell comes from it.
   */
  depth?: Float32Array;
};

export type RendererOptions = {
  /** Std of the additive pixel noise, 8-bit units. Default 0. */
  noiseStd?: number;
  /** Seed of the noise stream. Default 0. */
  noiseSeed?: number;
  /**
   * Largest relative change of a view ray's dz over an 8-px background span that is still
   * interpolated linearly (see `renderView`). Default 0.05; 0 computes every pixel exactly.
   */
  spanTolerance?: number;
  /**
   * Smallest mean absolute channel change (8-bit units; see RenderTarget.visibleMask) for which a labelled pixel
   * counts as visible in `RenderTarget.visibleMask`. Default max(3, 1.5 * noiseStd): a change of
   * under 3 grey levels, or within the sensor noise, cannot be seen (issue 12).
   */
  visibleContrast?: number;
};

export function makeBoxList(capacity: number): BoxList {
  return {
    count: 0,
    objectId: new Int32Array(capacity),
    cls: new Uint8Array(capacity),
    x0: new Int32Array(capacity),
    y0: new Int32Array(capacity),
    x1: new Int32Array(capacity),
    y1: new Int32Array(capacity),
    pixels: new Int32Array(capacity),
  };
}

const NEAR_M = 0.05;
const NOISE_TABLE = 1 << 17;
const HAZE_LUT_SIZE = 1 << 16;
/** Background span length, px, and the largest relative change of the ray's dz over a span that
 * is still interpolated linearly (see rowSpans). */
const SPAN = 8;
const DEFAULT_SPAN_TOLERANCE = 0.05;
/** Consecutive polyline segments are drawn as one chord while it is shorter than this, px (L1). */
const MERGE_PX = 1;
/** Sky spans with an end nearer the sun than this cosine (about 18 deg) are computed per pixel. */
const SUN_EXACT_COS = 0.95;
/** Background attributes per exact pixel (span end) in the row buffer (see rowSpans). */
const ATTRS = 6;
const GRAIN_MASK = GRAIN_SIZE - 1;
const GRAIN_SHIFT = Math.log2(GRAIN_SIZE);
/** Grain cells are 128 / GRAIN_PER_TEXEL fixed-point units wide. */
const GRAIN_CELL_SHIFT = 7 - Math.log2(GRAIN_PER_TEXEL);

/**
 * Constants of one view of the background pass, set by `setupView` and read into locals once per
 * row (plain number fields, NaN until the first view so V8 stores them as doubles from the start;
 * no allocation per frame).
 */
class ViewConstants {
  /** 8-bit units per unit of linear intensity (255 times the exposure). */
  gain = NaN;
  /** View ray d(u, v) = c0 + u cu + v cv in ENU (linear in the pixel). */
  c0x = NaN;
  c0y = NaN;
  c0z = NaN;
  cux = NaN;
  cuy = NaN;
  cuz = NaN;
  cvx = NaN;
  cvy = NaN;
  cvz = NaN;
  /** Optical centre, m; z at least 1 cm above the ground plane. */
  camX = NaN;
  camY = NaN;
  camZ = NaN;
  /** Ground light per 8-bit texel value and channel, exposure gain folded in. */
  gR = NaN;
  gG = NaN;
  gB = NaN;
  /** Pixel footprint^4 = dist^6 * fp4Scale (see setupView). */
  fp4Scale = NaN;
  /** Haze, horizon, zenith minus horizon and sun colours times the exposure gain. */
  hazeR = NaN;
  hazeG = NaN;
  hazeB = NaN;
  hr = NaN;
  hg = NaN;
  hb = NaN;
  zhr = NaN;
  zhg = NaN;
  zhb = NaN;
  sR = NaN;
  sG = NaN;
  sB = NaN;
  /** Height of the cloud plane above the camera, m. */
  cloudH = NaN;
  /** Cloud colour (blue; red and green are 0.95 of it) times the exposure gain. */
  cloudShade = NaN;
}

export class Renderer {
  readonly camera: CameraModel;
  private readonly world: World;
  /** Motion-blur accumulator, allocated on first use. */
  private accBuffer: Float32Array | undefined;
  private viewBuffer: Uint8ClampedArray | undefined;
  private readonly blurPose: CameraPose = { x: 0, y: 0, z: 0, yaw: 0, pitch: 0, roll: 0 };
  private readonly rot = new Float64Array(9);
  private readonly noise: Float32Array;
  /** Ground mip levels packed one texel per word (r | g << 8 | b << 16), for 1 load per texel. */
  private readonly tex32: Uint32Array[];
  /** Texels per side and texels per metre of each mip level. */
  private readonly levelSize: Int32Array;
  private readonly levelScale: Float64Array;
  /** 128 / texel: level-0 texel coordinate in 1/128 texel per metre. */
  private readonly invTexel128: number;
  /** 1 / (128 2^k): level-k texel coordinate from a level-0 coordinate in 1/128 texel. */
  private readonly levelFrom128: Float64Array;
  /** (1.5 texel 2^k)^4: footprint^4 thresholds of the mip levels. */
  private readonly lodThr: Float64Array;
  /** Footprint^4 below which level 0 gets sub-texel grain: a texel covers more than about 2 px. */
  private readonly grainThr: number;
  /** exp(-dist / visibility) tabulated over dist^2 in [0, (6 visibility)^2). */
  private readonly hazeLut: Float32Array;
  private readonly hazeScale: number;
  /** Cloud texels per metre on the cloud plane. */
  private readonly invCloudTexel: number;
  /** Bounding sphere (centre xyz, radius) per object, for culling whole objects. */
  private readonly objSphere: Float64Array;
  private clampView: Uint8ClampedArray | undefined;
  /** Lit colour per segment before haze and exposure (the sun is fixed per world). */
  private readonly segColor: Float32Array;
  private readonly noiseRng: Rng;
  private readonly noiseStd: number;
  private readonly spanTolerance: number;
  private readonly frame = new ViewConstants();
  /**
   * Background spans of the row being drawn (see rowSpans), indexed by the span's first pixel,
   * one slot past the row's end: exact attributes (ATTRS) and end pixel; the run of ground pixels.
   */
  private readonly rowAttr: Float64Array;
  private readonly spanEnd: Int32Array;
  private groundFrom = 0;
  private groundTo = 0;
  /** Projection and colour of the segment being rasterised: x0, y0, w0, x1, y1, w1, r, g, b. */
  private readonly segArgs = new Float64Array(11);
  private readonly visibleContrast: number;
  /** Label outputs of the current render call (undefined when not asked for). */
  private visibleOut: Uint8Array | undefined;
  private depthOut: Float32Array | undefined;
  /** 1 where segment i starts at the end of segment i - 1 of the same object. */
  private readonly continues: Uint8Array;
  private readonly keys: Float64Array;
  // Per-object box scratch.
  private readonly bx0: Int32Array;
  private readonly by0: Int32Array;
  private readonly bx1: Int32Array;
  private readonly by1: Int32Array;
  private readonly bpx: Int32Array;

  constructor(world: World, camera: CameraModel, options: RendererOptions = {}) {
    this.world = world;
    this.camera = camera;
    this.noiseStd = options.noiseStd ?? 0;
    if (!(this.noiseStd >= 0)) throw new RangeError(`noiseStd=${this.noiseStd}, expected >= 0`);
    this.visibleContrast = options.visibleContrast ?? Math.max(3, 1.5 * this.noiseStd);
    if (!(this.visibleContrast >= 0)) throw new RangeError(`visibleContrast=${this.visibleContrast}, expected >= 0`);
    this.spanTolerance = options.spanTolerance ?? DEFAULT_SPAN_TOLERANCE;
    if (!(this.spanTolerance >= 0 && this.spanTolerance <= 0.5)) throw new RangeError(`spanTolerance=${this.spanTolerance}, expected in [0, 0.5]`);
    this.noiseRng = Rng.derive(options.noiseSeed ?? 0, 77);
    this.noise = new Float32Array(NOISE_TABLE);
    for (let i = 0; i < NOISE_TABLE; i++) this.noise[i] = this.noiseRng.normal() * this.noiseStd;
    const ground = world.ground;
    const levels = ground.levels.length;
    this.tex32 = ground.levels.map((lv, k) => packLevel(lv, ground.size >> k, k === 0));
    this.lodThr = new Float64Array(levels);
    this.levelFrom128 = new Float64Array(levels);
    this.levelSize = new Int32Array(levels);
    this.levelScale = new Float64Array(levels);
    for (let k = 0; k < levels; k++) {
      this.lodThr[k] = (1.5 * ground.texel_m * 2 ** k) ** 4;
      this.levelFrom128[k] = 1 / (128 * 2 ** k);
      this.levelSize[k] = ground.size >> k;
      this.levelScale[k] = 1 / (ground.texel_m * 2 ** k);
    }
    this.invTexel128 = this.levelScale[0]! * 128;
    this.grainThr = (0.5 * ground.texel_m) ** 4;
    this.invCloudTexel = 1 / world.sky.cloudTexel_m;
    const maxDist2 = (6 * world.sky.visibility_m) ** 2;
    this.hazeScale = (HAZE_LUT_SIZE - 1) / maxDist2;
    this.hazeLut = new Float32Array(HAZE_LUT_SIZE);
    for (let i = 0; i < HAZE_LUT_SIZE; i++) this.hazeLut[i] = Math.exp(-Math.sqrt(i / this.hazeScale) / world.sky.visibility_m);
    this.objSphere = boundingSpheres(world);
    this.segColor = litSegmentColours(world);
    this.continues = polylineJoins(world.segments);
    this.rowAttr = new Float64Array(ATTRS * (camera.width + 1));
    this.spanEnd = new Int32Array(camera.width + 1);
    const oc = world.objects.length;
    this.keys = new Float64Array(oc);
    this.bx0 = new Int32Array(oc);
    this.by0 = new Int32Array(oc);
    this.bx1 = new Int32Array(oc);
    this.by1 = new Int32Array(oc);
    this.bpx = new Int32Array(oc);
  }

  /**
   * Renders the view from `pose` into `target`. With `blurFrom`, averages `blurSamples` extra views
   * interpolated from `blurFrom` to `pose` (motion blur over the exposure); labels and boxes are
   * those of `pose`.
   */
  render(pose: CameraPose, target: RenderTarget, blurFrom?: CameraPose, blurSamples = 0): void {
    const cam = this.camera;
    const n = cam.width * cam.height;
    if (target.rgb.length < n * 3) throw new RangeError(`rgb.length=${target.rgb.length}, expected >= ${n * 3} (${cam.width}x${cam.height}x3)`);
    if (target.mask !== undefined && target.mask.length < n) throw new RangeError(`mask.length=${target.mask.length}, expected >= ${n}`);
    const mask = target.mask;
    if (mask !== undefined) mask.fill(0, 0, n);
    if (target.visibleMask !== undefined || target.depth !== undefined) {
      if (mask === undefined) throw new RangeError("visibleMask and depth need mask in the same RenderTarget");
      if (target.visibleMask !== undefined && target.visibleMask.length < n) throw new RangeError(`visibleMask.length=${target.visibleMask.length}, expected >= ${n}`);
      if (target.depth !== undefined && target.depth.length < n) throw new RangeError(`depth.length=${target.depth.length}, expected >= ${n}`);
    }
    this.visibleOut = target.visibleMask;
    this.depthOut = target.depth;
    this.visibleOut?.fill(0, 0, n);
    this.depthOut?.fill(0, 0, n);
    this.bpx.fill(0);
    const gain = 255 * this.world.exposure;
    const useNoise = this.noiseStd > 0;
    const noiseOffset = useNoise ? this.noiseRng.nextU32() & (NOISE_TABLE - 1) : -1;
    if (this.clampView === undefined || this.clampView.buffer !== target.rgb.buffer || this.clampView.byteOffset !== target.rgb.byteOffset) {
      // A Uint8ClampedArray view of the output rounds and clamps natively on store.
      this.clampView = new Uint8ClampedArray(target.rgb.buffer, target.rgb.byteOffset, n * 3);
    }
    const out = this.clampView;
    if (blurFrom === undefined || blurSamples <= 0) {
      this.renderView(pose, out, mask, gain, noiseOffset);
    } else {
      // Motion blur: average noise-free views in float, then add the noise once.
      const acc = (this.accBuffer ??= new Float32Array(n * 3));
      acc.fill(0);
      const view = this.view;
      const w = 1 / (blurSamples + 1);
      const p = this.blurPose;
      for (let s = 0; s <= blurSamples; s++) {
        const t = s / blurSamples;
        p.x = blurFrom.x + (pose.x - blurFrom.x) * t;
        p.y = blurFrom.y + (pose.y - blurFrom.y) * t;
        p.z = blurFrom.z + (pose.z - blurFrom.z) * t;
        p.yaw = blurFrom.yaw + wrapPi(pose.yaw - blurFrom.yaw) * t;
        p.pitch = blurFrom.pitch + (pose.pitch - blurFrom.pitch) * t;
        p.roll = blurFrom.roll + (pose.roll - blurFrom.roll) * t;
        this.renderView(p, view, s === blurSamples ? mask : undefined, gain, -1);
        for (let i = 0; i < n * 3; i++) acc[i] = acc[i]! + view[i]! * w;
      }
      const noise = this.noise;
      const m17 = NOISE_TABLE - 1;
      for (let i = 0; i < n * 3; i++) out[i] = acc[i]! + (useNoise ? noise[(noiseOffset + i) & m17]! : 0);
    }
    if (target.boxes !== undefined) {
      const boxes = target.boxes;
      let c = 0;
      const objects = this.world.objects;
      for (let o = 0; o < objects.length && c < boxes.objectId.length; o++) {
        if (this.bpx[o]! === 0) continue;
        boxes.objectId[c] = o;
        boxes.cls[c] = objects[o]!.cls;
        boxes.x0[c] = this.bx0[o]!;
        boxes.y0[c] = this.by0[o]!;
        boxes.x1[c] = this.bx1[o]!;
        boxes.y1[c] = this.by1[o]!;
        boxes.pixels[c] = this.bpx[o]!;
        c++;
      }
      boxes.count = c;
    }
  }

  /** Scratch 8-bit view for motion blur, allocated on first use. */
  private get view(): Uint8ClampedArray {
    if (this.viewBuffer === undefined) this.viewBuffer = new Uint8ClampedArray(this.camera.width * this.camera.height * 3);
    return this.viewBuffer;
  }

  /**
   * Renders one view into `out` (8-bit, exposure `gain` applied); with noiseOffset >= 0 adds the
   * noise table from that offset, per channel value. The background is drawn row by row: the
   * row's spans and the exact attributes at their ends first, then its ground and its sky pixels
   * (each one tight loop interpolating along the spans); the thin structures are drawn over it.
   */
  private renderView(pose: CameraPose, out: Uint8ClampedArray, mask: Uint8Array | undefined, gain: number, noiseOffset: number): void {
    const R = cameraRotation(pose.yaw, pose.pitch, pose.roll, this.camera, this.rot);
    this.setupView(pose, R, gain);
    const H = this.camera.height;
    const W = this.camera.width;
    for (let v = 0; v < H; v++) {
      this.rowSpans(v);
      // dz is monotonic along a row, so its ground pixels are one run and the sky the rest.
      const g0 = this.groundFrom, g1 = this.groundTo;
      if (g1 > g0) this.shadeGround(out, v, g0, g1, noiseOffset);
      if (g0 > 0) this.shadeSky(out, v, 0, g0, noiseOffset);
      if (g1 < W) this.shadeSky(out, v, g1, W, noiseOffset);
    }
    this.drawSegments(pose, R, out, mask, noiseOffset);
  }

  /** The per-view constants of the background (camera basis, light and sky colours) into `frame`. */
  private setupView(pose: CameraPose, R: Float64Array, gain: number): void {
    const cam = this.camera;
    const sky = this.world.sky;
    const f = this.frame;
    f.gain = gain;
    f.camX = pose.x;
    f.camY = pose.y;
    f.camZ = Math.max(pose.z, 0.01);
    f.cux = R[0]! / cam.fx; f.cuy = R[3]! / cam.fx; f.cuz = R[6]! / cam.fx;
    f.cvx = R[1]! / cam.fy; f.cvy = R[4]! / cam.fy; f.cvz = R[7]! / cam.fy;
    f.c0x = R[2]! - cam.cx * f.cux - cam.cy * f.cvx;
    f.c0y = R[5]! - cam.cx * f.cuy - cam.cy * f.cvy;
    f.c0z = R[8]! - cam.cx * f.cuz - cam.cy * f.cvz;
    const sunZ = sky.sunDir[2];
    // Ground light per 8-bit texel value, with the exposure gain folded in (one multiply per
    // channel per pixel).
    const groundLight = (sky.ambient + Math.max(0, sunZ) * sky.sunColor[1]) * 0.95 / 255 * gain;
    f.gR = groundLight * (sky.sunColor[0] / sky.sunColor[1] * 0.3 + 0.7);
    f.gG = groundLight;
    f.gB = groundLight * (sky.sunColor[2] / sky.sunColor[1] * 0.3 + 0.7);
    // Mip level from the pixel footprint f = dist / (fx sqrt(sin grazing)), compared as
    // f^4 = dist^4 d2 / (fx^4 dz^2) against (1.5 texel 2^k)^4. With t = -camZ / dz (so
    // dz^2 = camZ^2 / t^2) and dist^2 = t^2 d2 this is f^4 = dist^6 / (fx^4 camZ^2): no square
    // root and no second division per pixel.
    f.fp4Scale = 1 / (cam.fx ** 4 * f.camZ * f.camZ);
    f.hazeR = sky.haze[0] * gain; f.hazeG = sky.haze[1] * gain; f.hazeB = sky.haze[2] * gain;
    f.hr = sky.horizon[0] * gain; f.hg = sky.horizon[1] * gain; f.hb = sky.horizon[2] * gain;
    f.zhr = sky.zenith[0] * gain - f.hr; f.zhg = sky.zenith[1] * gain - f.hg; f.zhb = sky.zenith[2] * gain - f.hb;
    f.sR = sky.sunColor[0] * gain; f.sG = sky.sunColor[1] * gain; f.sB = sky.sunColor[2] * gain;
    f.cloudH = sky.cloudHeight_m - f.camZ;
    f.cloudShade = (0.8 + 0.25 * Math.max(0, sunZ)) * gain;
  }

  /**
   * Lays row v out in spans and computes the exact background attributes at their ends. The row
   * is walked in spans of SPAN pixels. The view ray is linear in u, so where the ray's dz keeps
   * its sign and changes by less than `spanTolerance` of itself over a span, the pixel attributes
   * are interpolated linearly between exact values at the span ends, as in span-based perspective
   * texture mapping (Heckbert, "Survey of Texture Mapping", IEEE CG&A 1986, sec. 3; the error of
   * interpolating the rational map linearly is second order in the relative depth change eps:
   * below eps^2 / 4 of the distance, under 0.1 px of footprint at f = 128 px for eps = 0.05).
   * Near the horizon, in steep banks and near the sun (where the glow bends sharply) every pixel
   * is computed exactly: a span of one pixel. spanEnd[u] is the end of the span starting at u;
   * slot u of rowAttr holds the exact attributes at u: where the ray goes down, the ground point
   * in level-0 texels (in 1/128 texel, shifted by half a texel), its squared distance and haze
   * transmission; where it goes up, the cloud-plane point in cloud texels, the cloud fade and the
   * sky colour with the sun glow. The pixels whose rays hit the ground, [groundFrom, groundTo),
   * are one run (dz is monotonic along the row; an empty run starts at 0).
   */
  private rowSpans(v: number): void {
    const W = this.camera.width;
    const attr = this.rowAttr, spanEnd = this.spanEnd, spanTolerance = this.spanTolerance;
    const f = this.frame;
    const bx = f.c0x + v * f.cvx, by = f.c0y + v * f.cvy, bz = f.c0z + v * f.cvz;
    const cux = f.cux, cuy = f.cuy, cuz = f.cuz;
    const camX = f.camX, camY = f.camY, camZ = f.camZ;
    const hazeLut = this.hazeLut, hazeScale = this.hazeScale, invTexel128 = this.invTexel128;
    const hr = f.hr, hg = f.hg, hb = f.hb, zhr = f.zhr, zhg = f.zhg, zhb = f.zhb, sR = f.sR, sG = f.sG, sB = f.sB;
    const sun = this.world.sky.sunDir;
    const sunX = sun[0], sunY = sun[1], sunZ = sun[2];
    const cloudH = f.cloudH, invCloudTexel = this.invCloudTexel;
    // Attributes at u are known exactly when the previous span was linear (they are its end's).
    let haveStart = false;
    let g0 = -1, g1 = 0;
    for (let u = 0; u < W; ) {
      const ub = u + SPAN < W ? u + SPAN : W;
      const dzA = bz + u * cuz;
      const dzB = bz + ub * cuz;
      let linear = ub - u > 1 && ((dzA < 0 && dzB < 0) || (dzA > 1e-4 && dzB > 1e-4));
      if (linear) {
        const lo = dzA < 0 ? (dzA > dzB ? -dzA : -dzB) : dzA < dzB ? dzA : dzB;
        linear = Math.abs(dzB - dzA) < spanTolerance * lo;
      }
      // Exact attributes at u (unless carried over) and, for a linear span, at ub.
      for (let e = haveStart ? 1 : 0; e < (linear ? 2 : 1); e++) {
        const ue = e === 0 ? u : ub;
        const dx = bx + ue * cux, dy = by + ue * cuy, dz = bz + ue * cuz;
        const d2 = dx * dx + dy * dy + dz * dz;
        const j = ATTRS * ue;
        if (dz < 0) {
          const t = -camZ / dz;
          const dist2 = t * t * d2;
          const hi = dist2 * hazeScale;
          attr[j] = (camX + t * dx) * invTexel128 - 64;
          attr[j + 1] = (camY + t * dy) * invTexel128 - 64;
          attr[j + 2] = dist2;
          attr[j + 3] = hi < HAZE_LUT_SIZE - 1 ? hazeLut[hi | 0]! : 0;
          continue;
        }
        const inv = 1 / Math.sqrt(d2);
        const el = dz * inv;
        const k = Math.sqrt(el);
        const cs = (dx * sunX + dy * sunY + dz * sunZ) * inv;
        let glow = 0;
        if (cs > 0) {
          let s = cs * cs; // glow ~ cos^64 + cos^8
          s *= s;
          s *= s;
          const s8 = s;
          s *= s;
          s *= s;
          s *= s;
          glow = 0.25 * s8 + 0.6 * s + (cs > 0.99996 ? 3 : 0);
        }
        const t = cloudH / dz;
        const el3 = el * 3;
        attr[j] = dz > 1e-4 ? (camX + t * dx) * invCloudTexel : 0;
        attr[j + 1] = dz > 1e-4 ? (camY + t * dy) * invCloudTexel : 0;
        attr[j + 2] = dz > 1e-4 ? (el3 < 1 ? el3 : 1) : 0;
        attr[j + 3] = hr + zhr * k + glow * sR;
        attr[j + 4] = hg + zhg * k + glow * sG;
        attr[j + 5] = hb + zhb * k + glow * sB;
        if (cs > SUN_EXACT_COS) linear = false;
      }
      if (dzA < 0 && g0 < 0) g0 = u;
      const end = linear ? ub : u + 1;
      if (dzA < 0) g1 = end;
      spanEnd[u] = end;
      haveStart = linear;
      u = end;
    }
    this.groundFrom = g0 < 0 ? 0 : g0;
    this.groundTo = g0 < 0 ? 0 : g1;
  }

  /**
   * The ground pixels [u0, u1) of row v (whole spans): the texture sample lit and faded into
   * haze, plus the noise table from noiseOffset when it is >= 0.
   */
  private shadeGround(out: Uint8ClampedArray, v: number, u0: number, u1: number, noiseOffset: number): void {
    const W = this.camera.width;
    const attr = this.rowAttr, spanEnd = this.spanEnd;
    const f = this.frame;
    const fp4Scale = f.fp4Scale;
    const gR = f.gR, gG = f.gG, gB = f.gB;
    // Level 0 is filtered in 7-bit fixed point, hence the extra 1/128.
    const gR7 = gR / 128, gG7 = gG / 128, gB7 = gB / 128;
    const hazeR = f.hazeR, hazeG = f.hazeG, hazeB = f.hazeB;
    const tex32 = this.tex32, tex0 = tex32[0]!, maxLevel = tex32.length - 1;
    const levelSize = this.levelSize, levelFrom128 = this.levelFrom128, lodThr = this.lodThr, lod0 = lodThr[0]!;
    const m0 = levelSize[0]! - 1, tileRow = levelSize[0]! * 4;
    const grain = this.world.ground.grain, grainThr = this.grainThr;
    const useNoise = noiseOffset >= 0;
    const noise = this.noise;
    const m17 = NOISE_TABLE - 1;
    const n0 = useNoise ? noiseOffset : 0;
    for (let u = u0; u < u1; ) {
      const end = spanEnd[u]!;
      const j = ATTRS * u;
      let q1 = attr[j]!, q2 = attr[j + 1]!, q3 = attr[j + 2]!, q4 = attr[j + 3]!;
      // Per-pixel increments towards the span end's exact values (none for an exact pixel).
      let i1 = 0, i2 = 0, i3 = 0, i4 = 0;
      if (end - u > 1) {
        const jb = ATTRS * end, inv = 1 / (end - u);
        i1 = (attr[jb]! - q1) * inv; i2 = (attr[jb + 1]! - q2) * inv; i3 = (attr[jb + 2]! - q3) * inv; i4 = (attr[jb + 3]! - q4) * inv;
      }
      for (let o = (v * W + u) * 3; u < end; u++, o += 3, q1 += i1, q2 += i2, q3 += i3, q4 += i4) {
        const fp4 = q3 * q3 * q3 * fp4Scale;
        let tr: number, tg: number, tb: number;
        if (fp4 <= lod0) {
          // Magnified or 1:1: bilinear in 7-bit fixed point on packed texels; red and blue
          // are filtered together in one word (each field stays below 255 * 128 < 2^16).
          // Texel coordinates are in 1/128 texel: floor gives the texel (>> 7), the bilinear
          // weight (& 127) and the grain cell (>> 5, four per texel) at once. ToInt32 wraps
          // modulo 2^32, which keeps the low bits the tiling and the weights use.
          const fu = Math.floor(q1) | 0;
          const fv = Math.floor(q2) | 0;
          const iu = fu >> 7;
          const iv = fv >> 7;
          const a7 = fu & 127;
          const b7 = fv & 127;
          const w11 = (a7 * b7) >> 7;
          const w01 = a7 - w11;
          const w10 = b7 - w11;
          const w00 = 128 - a7 - b7 + w11;
          // Tiled level 0: index = tile row + tile column + position in the 4x4 tile.
          const iu0 = iu & m0, iu1 = (iu + 1) & m0, iv0 = iv & m0, iv1 = (iv + 1) & m0;
          const u0 = ((iu0 >> 2) << 4) | (iu0 & 3), u1 = ((iu1 >> 2) << 4) | (iu1 & 3);
          const v0 = (iv0 >> 2) * tileRow + ((iv0 & 3) << 2), v1 = (iv1 >> 2) * tileRow + ((iv1 & 3) << 2);
          const c00 = tex0[v0 + u0]!, c01 = tex0[v0 + u1]!, c10 = tex0[v1 + u0]!, c11 = tex0[v1 + u1]!;
          const rb = (c00 & 0xff00ff) * w00 + (c01 & 0xff00ff) * w01 + (c10 & 0xff00ff) * w10 + (c11 & 0xff00ff) * w11;
          const gg = ((c00 >> 8) & 0xff) * w00 + ((c01 >> 8) & 0xff) * w01 + ((c10 >> 8) & 0xff) * w10 + ((c11 >> 8) & 0xff) * w11;
          let k = 1;
          if (fp4 < grainThr) {
            // Close range: modulate with sub-texel grain so the magnified texture is not smooth.
            k = grain[(((fv >> GRAIN_CELL_SHIFT) & GRAIN_MASK) << GRAIN_SHIFT) + ((fu >> GRAIN_CELL_SHIFT) & GRAIN_MASK)]!;
          }
          tr = (rb & 0xffff) * gR7 * k;
          tg = gg * gG7 * k;
          tb = (rb >>> 16) * gB7 * k;
        } else {
          // Minified: the mip level already averages the footprint; nearest texel.
          let level = 1;
          while (level < maxLevel && fp4 > lodThr[level]!) level++;
          const size = levelSize[level]!;
          const m = size - 1;
          const sc = levelFrom128[level]!;
          const c = tex32[level]![(Math.floor((q2 + 64) * sc) & m) * size + (Math.floor((q1 + 64) * sc) & m)]!;
          tr = (c & 0xff) * gR;
          tg = ((c >> 8) & 0xff) * gG;
          tb = (c >>> 16) * gB;
        }
        const h1 = 1 - q4;
        const r = tr * q4 + hazeR * h1;
        const g = tg * q4 + hazeG * h1;
        const b = tb * q4 + hazeB * h1;
        if (useNoise) {
          out[o] = r + noise[(n0 + o) & m17]!;
          out[o + 1] = g + noise[(n0 + o + 1) & m17]!;
          out[o + 2] = b + noise[(n0 + o + 2) & m17]!;
        } else {
          out[o] = r;
          out[o + 1] = g;
          out[o + 2] = b;
        }
      }
    }
  }

  /** The sky pixels [u0, u1) of row v (whole spans): sky colour under the clouds, plus the noise as in shadeGround. */
  private shadeSky(out: Uint8ClampedArray, v: number, u0: number, u1: number, noiseOffset: number): void {
    const W = this.camera.width;
    const attr = this.rowAttr, spanEnd = this.spanEnd;
    const sky = this.world.sky;
    const clouds = sky.clouds;
    const cloudMask = sky.cloudSize - 1;
    const cloudShift = Math.log2(sky.cloudSize);
    const cloudShade = this.frame.cloudShade;
    const cloudShadeRG = cloudShade * 0.95;
    const useNoise = noiseOffset >= 0;
    const noise = this.noise;
    const m17 = NOISE_TABLE - 1;
    const n0 = useNoise ? noiseOffset : 0;
    for (let u = u0; u < u1; ) {
      const end = spanEnd[u]!;
      const j = ATTRS * u;
      let q1 = attr[j]!, q2 = attr[j + 1]!, q3 = attr[j + 2]!, q4 = attr[j + 3]!, q5 = attr[j + 4]!, q6 = attr[j + 5]!;
      let i1 = 0, i2 = 0, i3 = 0, i4 = 0, i5 = 0, i6 = 0;
      if (end - u > 1) {
        const jb = ATTRS * end, inv = 1 / (end - u);
        i1 = (attr[jb]! - q1) * inv; i2 = (attr[jb + 1]! - q2) * inv; i3 = (attr[jb + 2]! - q3) * inv;
        i4 = (attr[jb + 3]! - q4) * inv; i5 = (attr[jb + 4]! - q5) * inv; i6 = (attr[jb + 5]! - q6) * inv;
      }
      for (let o = (v * W + u) * 3; u < end; u++, o += 3) {
        let r = q4, g = q5, b = q6;
        if (q3 > 0) {
          const dens = clouds[(((q2 | 0) & cloudMask) << cloudShift) + ((q1 | 0) & cloudMask)]! * q3;
          if (dens > 0) {
            r += (cloudShadeRG - r) * dens;
            g += (cloudShadeRG - g) * dens;
            b += (cloudShade - b) * dens;
          }
        }
        if (useNoise) {
          out[o] = r + noise[(n0 + o) & m17]!;
          out[o + 1] = g + noise[(n0 + o + 1) & m17]!;
          out[o + 2] = b + noise[(n0 + o + 2) & m17]!;
        } else {
          out[o] = r;
          out[o + 1] = g;
          out[o + 2] = b;
        }
        q1 += i1; q2 += i2; q3 += i3; q4 += i4; q5 += i5; q6 += i6;
      }
    }
  }

  /**
   * The thin structures: objects are culled with a conservative frustum test on their bounding
   * spheres, sorted far to near by sphere-centre depth (painter's algorithm per object; segments
   * of one object are drawn in their stored order), and their segments projected and rasterised.
   */
  private drawSegments(pose: CameraPose, R: Float64Array, out: Uint8ClampedArray, mask: Uint8Array | undefined, noiseOffset: number): void {
    const visible = this.sortVisibleObjects(pose, R);
    const objects = this.world.objects;
    for (let q = 0; q < visible; q++) this.drawObject(objects[this.keys[q]! % 1048576]!, pose, R, out, mask, noiseOffset);
  }

  /** Sorts the objects in view far to near into the first entries of `keys`; returns their count. */
  private sortVisibleObjects(pose: CameraPose, R: Float64Array): number {
    const W = this.camera.width, H = this.camera.height, fx = this.camera.fx, fy = this.camera.fy;
    const r00 = R[0]!, r01 = R[1]!, r02 = R[2]!, r10 = R[3]!, r11 = R[4]!, r12 = R[5]!, r20 = R[6]!, r21 = R[7]!, r22 = R[8]!;
    const tanX = (0.5 * W + 2) / fx, tanY = (0.5 * H + 2) / fy;
    const secX = Math.sqrt(1 + tanX * tanX), secY = Math.sqrt(1 + tanY * tanY);
    const sph = this.objSphere;
    const keys = this.keys;
    let visible = 0;
    for (let oi = 0; oi < this.world.objects.length; oi++) {
      const sx = sph[4 * oi]! - pose.x, sy = sph[4 * oi + 1]! - pose.y, sz = sph[4 * oi + 2]! - pose.z, rho = sph[4 * oi + 3]!;
      const Xc = r00 * sx + r10 * sy + r20 * sz, Yc = r01 * sx + r11 * sy + r21 * sz, Zc = r02 * sx + r12 * sy + r22 * sz;
      if (Zc < NEAR_M - rho) continue;
      if (Math.abs(Xc) - Zc * tanX > rho * secX || Math.abs(Yc) - Zc * tanY > rho * secY) continue;
      // Key: farther first; depth in mm in the high part, the object index in the low 20 bits.
      keys[visible++] = Math.max(0, 1e7 - Math.round(Math.max(0, Zc) * 1000)) * 1048576 + oi;
    }
    // Unused slots sort last; sorting the whole preallocated array allocates nothing.
    keys.fill(Infinity, visible);
    keys.sort();
    return visible;
  }

  /**
   * Projects the segments of one object (clipped at the near plane, lit and hazed) and rasterises
   * them; sub-pixel pieces of a polyline are merged into chords.
   */
  private drawObject(ob: WorldObject, pose: CameraPose, R: Float64Array, out: Uint8ClampedArray, mask: Uint8Array | undefined, noiseOffset: number): void {
    const cam = this.camera;
    const gain = this.frame.gain;
    const W = cam.width, H = cam.height;
    const seg = this.world.segments;
    const { a, b, radius } = seg;
    const sky = this.world.sky;
    const base = this.segColor;
    const hazeLut = this.hazeLut, hazeScale = this.hazeScale;
    const hazeR = sky.haze[0], hazeG = sky.haze[1], hazeB = sky.haze[2];
    const fx = cam.fx, fy = cam.fy, ccx = cam.cx + 0.5, ccy = cam.cy + 0.5;
    const r00 = R[0]!, r01 = R[1]!, r02 = R[2]!, r10 = R[3]!, r11 = R[4]!, r12 = R[5]!, r20 = R[6]!, r21 = R[7]!, r22 = R[8]!;
    const cont = this.continues;
    // Doubles go through a preallocated scratch: as arguments of a call that is not inlined
    // they would be boxed (one heap number each, per segment).
    const sa = this.segArgs;
    const end = ob.firstSegment + ob.segmentCount;
    // Optical coordinates (R^T * (p - pose)) of the previous segment's end, reused when this
    // segment starts there (polylines: conductor spans, trunks, branches).
    let pX = 0, pY = 0, pZ = 0;
    let pending = false, pendingLast = -1, pendingCls = 0;
    for (let i = ob.firstSegment; i < end; i++) {
      let X0: number, Y0: number, Z0: number;
      if (i > ob.firstSegment && cont[i] === 1) {
        X0 = pX; Y0 = pY; Z0 = pZ;
      } else {
        const ax = a[3 * i]! - pose.x, ay = a[3 * i + 1]! - pose.y, az = a[3 * i + 2]! - pose.z;
        X0 = r00 * ax + r10 * ay + r20 * az; Y0 = r01 * ax + r11 * ay + r21 * az; Z0 = r02 * ax + r12 * ay + r22 * az;
      }
      const bx = b[3 * i]! - pose.x, by = b[3 * i + 1]! - pose.y, bz = b[3 * i + 2]! - pose.z;
      let X1 = r00 * bx + r10 * by + r20 * bz, Y1 = r01 * bx + r11 * by + r21 * bz, Z1 = r02 * bx + r12 * by + r22 * bz;
      pX = X1; pY = Y1; pZ = Z1;
      if (Z0 < NEAR_M && Z1 < NEAR_M) continue;
      if (Z0 < NEAR_M) {
        const t = (NEAR_M - Z0) / (Z1 - Z0);
        X0 += (X1 - X0) * t; Y0 += (Y1 - Y0) * t; Z0 = NEAR_M;
      } else if (Z1 < NEAR_M) {
        const t = (NEAR_M - Z1) / (Z0 - Z1);
        X1 += (X0 - X1) * t; Y1 += (Y0 - Y1) * t; Z1 = NEAR_M;
      }
      const iz0 = 1 / Z0, iz1 = 1 / Z1;
      const x0 = fx * X0 * iz0 + ccx, y0 = fy * Y0 * iz0 + ccy;
      const x1 = fx * X1 * iz1 + ccx, y1 = fy * Y1 * iz1 + ccy;
      const rr2 = 2 * radius[i]! * fx;
      const w0 = rr2 * iz0, w1 = rr2 * iz1;
      const m = 0.5 * (w0 > w1 ? (w0 > 1 ? w0 : 1) : w1 > 1 ? w1 : 1) + 1;
      if ((x0 > x1 ? x0 : x1) < -m || (x0 < x1 ? x0 : x1) > W + m || (y0 > y1 ? y0 : y1) < -m || (y0 < y1 ? y0 : y1) > H + m) continue;
      const cls = seg.cls[i]!;
      // Sub-pixel pieces of a polyline (distant branches) are merged into one chord while the
      // chord stays under MERGE_PX (L1, px): the same pixels at a fraction of the per-segment
      // cost; the chord of a bent sub-pixel chain is at most a fraction of a pixel off it.
      if (pending && pendingLast === i - 1 && cont[i] === 1 && cls === pendingCls && Math.abs(x1 - sa[0]!) + Math.abs(y1 - sa[1]!) < MERGE_PX) {
        sa[3] = x1; sa[4] = y1; sa[5] = w1; sa[10] = iz1;
        pendingLast = i;
        continue;
      }
      if (pending) {
        this.rasterise(pendingCls, ob.id, W, H, out, mask, noiseOffset);
        pending = false;
      }
      const depth = 0.5 * (Z0 + Z1);
      const hi = depth * depth * hazeScale;
      const h = hi < HAZE_LUT_SIZE - 1 ? hazeLut[hi | 0]! : 0;
      const h1 = 1 - h;
      sa[0] = x0; sa[1] = y0; sa[2] = w0; sa[3] = x1; sa[4] = y1; sa[5] = w1; sa[9] = iz0; sa[10] = iz1;
      sa[6] = (base[3 * i]! * h + hazeR * h1) * gain;
      sa[7] = (base[3 * i + 1]! * h + hazeG * h1) * gain;
      sa[8] = (base[3 * i + 2]! * h + hazeB * h1) * gain;
      if (i + 1 < end && cont[i + 1] === 1 && Math.abs(x1 - x0) + Math.abs(y1 - y0) < MERGE_PX) {
        pending = true;
        pendingLast = i;
        pendingCls = cls;
        continue;
      }
      this.rasterise(cls, ob.id, W, H, out, mask, noiseOffset);
    }
    if (pending) this.rasterise(pendingCls, ob.id, W, H, out, mask, noiseOffset);
  }

  private rasterise(cls: number, obj: number, W: number, H: number, out: Uint8ClampedArray, mask: Uint8Array | undefined, noiseOffset: number): void {
    const sa = this.segArgs;
    let x0 = sa[0]!, w0 = sa[2]!;
    let x1 = sa[3]!, w1 = sa[5]!;
    const y0 = sa[1]!, y1 = sa[4]!;
    let iz0 = sa[9]!, iz1 = sa[10]!;
    const visibleOut = mask === undefined ? undefined : this.visibleOut;
    const depthOut = mask === undefined ? undefined : this.depthOut;
    const minContrast3 = 3 * this.visibleContrast;
    const cr = sa[6]!, cg = sa[7]!, cb = sa[8]!;
    const useNoise = noiseOffset >= 0;
    const noise = this.noise;
    const m17 = NOISE_TABLE - 1;
    let dx = x1 - x0;
    const dy = y1 - y0;
    if (Math.abs(dx) < 1e-3 && Math.abs(dy) < 1e-3) {
      // Seen end-on: a blob of the projected width.
      const half = 0.5 * Math.max(w0, w1, 1);
      x0 -= half; x1 += half; dx = x1 - x0;
    }
    const xMajor = Math.abs(dx) >= Math.abs(dy);
    // Map to (major, minor) coordinates.
    let m0 = xMajor ? x0 : y0, n0 = xMajor ? y0 : x0, m1 = xMajor ? x1 : y1, n1 = xMajor ? y1 : x1;
    if (m1 < m0) {
      let t = m0; m0 = m1; m1 = t;
      t = n0; n0 = n1; n1 = t;
      t = w0; w0 = w1; w1 = t;
      t = iz0; iz0 = iz1; iz1 = t;
    }
    const dm = m1 - m0;
    const dn = n1 - n0;
    const invDm = 1 / dm;
    const secInv = Math.sqrt(dm * dm + dn * dn) * invDm;
    // Image limits and pixel strides along the major and the minor axis.
    const limM = xMajor ? W : H, limN = xMajor ? H : W;
    const strideM = xMajor ? 1 : W, strideN = xMajor ? W : 1;
    const i0 = Math.max(0, Math.floor(m0));
    const i1 = Math.min(limM - 1, Math.floor(m1));
    // Extent and count of the pixels this segment labels.
    let lx0 = W, ly0 = H, lx1 = -1, ly1 = -1, labels = 0;
    for (let im = i0; im <= i1; im++) {
      const lo = m0 > im ? m0 : im;
      const hi = m1 < im + 1 ? m1 : im + 1;
      const frac = hi - lo;
      if (frac <= 0) continue;
      const t = (0.5 * (lo + hi) - m0) * invDm;
      const c = n0 + t * dn;
      const w = w0 + t * (w1 - w0);
      const alphaScale = (w < 1 ? w : 1) * frac;
      const half = 0.5 * (w < 1 ? 1 : w) * secInv;
      const lo2 = c - half;
      const hi2 = c + half;
      const k0 = Math.max(0, Math.floor(lo2));
      const k1 = Math.min(limN - 1, Math.floor(hi2));
      const kc = Math.floor(c);
      for (let k = k0; k <= k1; k++) {
        const cov = (hi2 < k + 1 ? hi2 : k + 1) - (lo2 > k ? lo2 : k);
        if (cov <= 0) continue;
        const alpha = cov * alphaScale;
        const p = im * strideM + k * strideN;
        const o = p * 3;
        // Change of this pixel by the structure before noise (sum over channels), for visibility.
        const change = alpha * (Math.abs(cr - out[o]!) + Math.abs(cg - out[o + 1]!) + Math.abs(cb - out[o + 2]!));
        // Blend towards the structure's colour plus the pixel's own noise sample, so fully
        // covered pixels are as noisy as the background.
        const nr = useNoise ? noise[(noiseOffset + o) & m17]! : 0;
        const ng = useNoise ? noise[(noiseOffset + o + 1) & m17]! : 0;
        const nb = useNoise ? noise[(noiseOffset + o + 2) & m17]! : 0;
        out[o] = out[o]! + (cr + nr - out[o]!) * alpha;
        out[o + 1] = out[o + 1]! + (cg + ng - out[o + 1]!) * alpha;
        out[o + 2] = out[o + 2]! + (cb + nb - out[o + 2]!) * alpha;
        if (mask !== undefined && (k === kc || alpha >= 0.5)) {
          // Later (nearer) writes win, as in the mask; but a pixel that a structure of the same
          // class already made visible stays visible (the next segment of a polyline grazing a
          // pixel its previous segment covered measures its change against its own colour).
          if (visibleOut !== undefined) visibleOut[p] = change > minContrast3 || (mask[p] === cls && visibleOut[p] === cls) ? cls : 0;
          mask[p] = cls;
          // 1/Z is linear in screen space along the segment.
          if (depthOut !== undefined) depthOut[p] = 1 / (iz0 + t * (iz1 - iz0));
          const px = xMajor ? im : k;
          const py = xMajor ? k : im;
          if (px < lx0) lx0 = px;
          if (px > lx1) lx1 = px;
          if (py < ly0) ly0 = py;
          if (py > ly1) ly1 = py;
          labels++;
        }
      }
    }
    if (labels > 0) this.mergeBox(obj, lx0, ly0, lx1, ly1, labels);
  }

  /** Merges one segment's label extent and count into its object's box (once per segment, not per pixel). */
  private mergeBox(obj: number, lx0: number, ly0: number, lx1: number, ly1: number, labels: number): void {
    if (this.bpx[obj] === 0) {
      this.bx0[obj] = lx0; this.bx1[obj] = lx1; this.by0[obj] = ly0; this.by1[obj] = ly1;
    } else {
      if (lx0 < this.bx0[obj]!) this.bx0[obj] = lx0;
      if (lx1 > this.bx1[obj]!) this.bx1[obj] = lx1;
      if (ly0 < this.by0[obj]!) this.by0[obj] = ly0;
      if (ly1 > this.by1[obj]!) this.by1[obj] = ly1;
    }
    this.bpx[obj] = this.bpx[obj]! + labels;
  }
}

/** Ground mip level `lv` (size x size texels, RGB) packed one texel per word; level 0 tiled. */
function packLevel(lv: Uint8Array, size: number, tiled: boolean): Uint32Array {
  const packed = new Uint32Array(lv.length / 3);
  for (let i = 0; i < packed.length; i++) {
    // Level 0 is stored in 4x4-texel tiles (64 bytes, one cache line), so a bilinear quad
    // touches one or two lines whatever the direction the view walks across the texture.
    const dst = tiled ? tiledIndex(i % size, (i / size) | 0, size) : i;
    packed[dst] = lv[3 * i]! | (lv[3 * i + 1]! << 8) | (lv[3 * i + 2]! << 16);
  }
  return packed;
}

/** Bounding sphere (centre xyz, radius) of each object's segments, 4 numbers per object. */
function boundingSpheres(world: World): Float64Array {
  const spheres = new Float64Array(world.objects.length * 4);
  const { a, b, radius } = world.segments;
  for (const o of world.objects) {
    let lx = Infinity, ly = Infinity, lz = Infinity, hx = -Infinity, hy = -Infinity, hz = -Infinity;
    for (let i = o.firstSegment; i < o.firstSegment + o.segmentCount; i++) {
      for (const p of [a, b]) {
        lx = Math.min(lx, p[3 * i]!); ly = Math.min(ly, p[3 * i + 1]!); lz = Math.min(lz, p[3 * i + 2]!);
        hx = Math.max(hx, p[3 * i]!); hy = Math.max(hy, p[3 * i + 1]!); hz = Math.max(hz, p[3 * i + 2]!);
      }
    }
    const cx = (lx + hx) / 2, cy = (ly + hy) / 2, cz = (lz + hz) / 2;
    let rad = 0;
    for (let i = o.firstSegment; i < o.firstSegment + o.segmentCount; i++) {
      for (const p of [a, b]) {
        rad = Math.max(rad, Math.hypot(p[3 * i]! - cx, p[3 * i + 1]! - cy, p[3 * i + 2]! - cz) + radius[i]!);
      }
    }
    spheres.set([cx, cy, cz, rad], 4 * o.id);
  }
  return spheres;
}

/** Lit colour per segment (3 per segment) before haze and exposure: the sun is fixed per world. */
function litSegmentColours(world: World): Float32Array {
  const sc = world.segments.count;
  const colours = new Float32Array(sc * 3);
  const sky = world.sky;
  const sun = sky.sunDir;
  const { a, b } = world.segments;
  for (let i = 0; i < sc; i++) {
    // Lambert averaged over a cylinder's lit side ~ sqrt(1 - (axis . sun)^2), plus a specular
    // term for metallic conductors.
    const ox = a[3 * i]! - b[3 * i]!, oy = a[3 * i + 1]! - b[3 * i + 1]!, oz = a[3 * i + 2]! - b[3 * i + 2]!;
    const ol = Math.hypot(ox, oy, oz) || 1;
    const cosA = (ox * sun[0] + oy * sun[1] + oz * sun[2]) / ol;
    const diffuse = Math.sqrt(Math.max(0, 1 - cosA * cosA)) * 0.8 * Math.max(0.15, sun[2] + 0.3);
    const obj = world.objects[world.segments.object[i]!]!;
    const spec = obj.specular * 0.35 * diffuse;
    colours[3 * i] = obj.albedo[0] * (sky.ambient * 0.9 + diffuse * sky.sunColor[0]) + spec;
    colours[3 * i + 1] = obj.albedo[1] * (sky.ambient * 0.9 + diffuse * sky.sunColor[1]) + spec;
    colours[3 * i + 2] = obj.albedo[2] * (sky.ambient + diffuse * sky.sunColor[2]) + spec;
  }
  return colours;
}

/** 1 where segment i starts at the end of segment i - 1 of the same object (a polyline joint). */
function polylineJoins(seg: Segments): Uint8Array {
  const { a, b } = seg;
  const joins = new Uint8Array(seg.count);
  for (let i = 1; i < seg.count; i++) {
    const same = seg.object[i] === seg.object[i - 1];
    if (same && a[3 * i] === b[3 * i - 3] && a[3 * i + 1] === b[3 * i - 2] && a[3 * i + 2] === b[3 * i - 1]) joins[i] = 1;
  }
  return joins;
}

/** Index of texel (u, v) of a size x size texture stored in 4x4 tiles, row-major tiles. */
function tiledIndex(u: number, v: number, size: number): number {
  return (v >> 2) * size * 4 + ((u >> 2) << 4) + ((v & 3) << 2) + (u & 3);
}

function wrapPi(a: number): number {
  return a - 2 * Math.PI * Math.round(a / (2 * Math.PI));
}
