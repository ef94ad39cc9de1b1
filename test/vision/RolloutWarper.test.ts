import { rotationalFlow, type CameraIntrinsics } from "../../src/vision/flowModel";
import { loadOpenCv, type Cv } from "../../src/vision/opencv";
import { RolloutWarper } from "../../src/vision/RolloutWarper";
import { renderF32, smoothTexture } from "../../src/vision/synthetic";

const W = 128;
const H = 128;

describe("RolloutWarper", () => {
  let cv: Cv;
  beforeAll(async () => {
    cv = await loadOpenCv();
  });

  test("bilinear warp by a known flow reproduces the analytic target: interior MAE < 1 grey level (of 0..255)", () => {
    // Flow of a forward move: expansion about the centre (3 %) plus a sub-pixel shift.
    const T = smoothTexture(11);
    const flow = new Float32Array(W * H * 2);
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        flow[(y * W + x) * 2] = 0.03 * (x - 64) + 0.37;
        flow[(y * W + x) * 2 + 1] = 0.03 * (y - 64) - 0.21;
      }
    }
    // Target: target(p) = T(p - flow(p)) evaluated on the continuous texture (no raster involved).
    const target = renderF32(W, H, (x, y) => T(x - (0.03 * (x - 64) + 0.37), y - (0.03 * (y - 64) - 0.21)));
    const warper = new RolloutWarper(cv, { width: W, height: H });
    const src = new cv.Mat(H, W, cv.CV_32FC1);
    const dst = new cv.Mat(H, W, cv.CV_32FC1);
    src.data32F.set(renderF32(W, H, T));
    const mae = (mode: "bilinear" | "nearest"): number => {
      warper.warp(src, flow, 1, dst, mode);
      const out = dst.data32F;
      let s = 0;
      let n = 0;
      for (let y = 8; y < H - 8; y++) for (let x = 8; x < W - 8; x++, n++) s += Math.abs(out[y * W + x]! - target[y * W + x]!);
      return s / n;
    };
    const bilinear = mae("bilinear");
    const nearest = mae("nearest");
    process.stdout.write(`warp MAE vs analytic target: bilinear ${bilinear.toFixed(3)}, nearest ${nearest.toFixed(3)} grey levels\n`);
    // Measured: bilinear 0.535, nearest 3.37 grey levels. The bilinear residual is the interpolation
    // error on the shortest (8 px) wavelengths of the texture plus remap's 1/32 px coordinate
    // quantisation (INTER_BITS = 5 in imgproc); the bound leaves ~50 % margin.
    expect(bilinear).toBeLessThan(1);
    expect(bilinear).toBeLessThan(nearest / 3);
    src.delete();
    dst.delete();
    warper.dispose();
  });

  test("scaleFlow: translation scales by 1 / (|v| dt); gyro rotation is removed first", () => {
    const k: CameraIntrinsics = { fx: 110, fy: 110, cx: 63.5, cy: 63.5 };
    const warper = new RolloutWarper(cv, { width: W, height: H, intrinsics: k });
    const dt = 0.05;
    const speed = 4; // 0.2 m flown between the frames
    const w = { x: 0.1, y: -0.3, z: 0.2 };
    const trans = new Float32Array(W * H * 2);
    for (let i = 0; i < W * H; i++) {
      const x = i % W;
      const y = Math.floor(i / W);
      trans[2 * i] = 0.01 * (x - 63.5);
      trans[2 * i + 1] = 0.01 * (y - 63.5);
    }
    const rot = new Float32Array(W * H * 2);
    rotationalFlow(W, H, k, w, dt, rot);
    const measured = trans.map((v, i) => v + rot[i]!);
    expect(warper.scaleFlow(measured, { dtS: dt, speedMps: speed, angularVelocityOpt: w })).toBe("scaled");
    expect(warper.lastRotationCompensated).toBe(true);
    let maxErr = 0;
    for (let i = 0; i < trans.length; i++) maxErr = Math.max(maxErr, Math.abs(warper.flowPerMetre[i]! - trans[i]! / (speed * dt)));
    expect(maxErr).toBeLessThan(1e-4); // float32 rounding only
    // Without the gyro the rotation is scaled too: the error equals rot / (|v| dt).
    expect(warper.scaleFlow(measured, { dtS: dt, speedMps: speed })).toBe("scaled");
    expect(warper.lastRotationCompensated).toBe(false);
    expect(Math.abs(warper.flowPerMetre[0]! - (trans[0]! + rot[0]!) * 5)).toBeLessThan(1e-4);
    // Hovering and broken stamps are flagged, never scaled.
    expect(warper.scaleFlow(measured, { dtS: dt, speedMps: 0.1 })).toBe("zero-speed");
    expect(warper.scaleFlow(measured, { dtS: dt, speedMps: Number.NaN })).toBe("zero-speed");
    expect(warper.scaleFlow(measured, { dtS: 0, speedMps: speed })).toBe("bad-interval");
    expect(warper.scaleFlow(measured, { dtS: 2, speedMps: speed })).toBe("bad-interval");
    expect(warper.lastScale).toBe(0);
    warper.dispose();
  });

  test("rejects bad options naming the value", () => {
    expect(() => new RolloutWarper(cv, { width: W, height: H, steps: 0 })).toThrow("steps=0, expected an integer >= 1");
    expect(() => new RolloutWarper(cv, { width: W, height: H, distanceM: -1 })).toThrow("distanceM=-1");
    const w = new RolloutWarper(cv, { width: 4, height: 4 });
    expect(() => w.warpStep(new cv.Mat(4, 4, cv.CV_32FC1), 4, new cv.Mat(4, 4, cv.CV_32FC1))).toThrow("k=4, expected 1..3");
    w.dispose();
  });
});

describe("RolloutWarper: the rotational flow it removes", () => {
  test("rotationalFlow: a pure pan (wy) shifts the image centre by -fx * wy * dt, as Longuet-Higgins and Prazdny predict", () => {
    const k: CameraIntrinsics = { fx: 100, fy: 100, cx: 2, cy: 2 };
    const out = new Float32Array(5 * 5 * 2);
    rotationalFlow(5, 5, k, { x: 0, y: 0.5, z: 0 }, 0.1, out);
    const c = (2 * 5 + 2) * 2;
    expect(out[c]).toBeCloseTo(-5, 5);
    expect(out[c + 1]).toBeCloseTo(0, 5);
  });
});
