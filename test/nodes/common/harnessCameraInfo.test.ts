/**
 * Rotation compensation of the imagined rollout in the running nodes: the harness node takes the
 * camera intrinsics from camera/camera_info (sensor-data QoS), the HarnessCorrector rebuilds its
 * VisionPipeline with them, and the gyro goes to the optical frame with camera_pitch_rad. Before
 * the first CameraInfo the rollout runs uncompensated and /diagnostics says so.
 */
import * as tf from "@tensorflow/tfjs";

import { HarnessCorrector } from "../../../nodes/common/models/HarnessCorrector";
import type { Correction, Corrector, StudentOutputs } from "../../../nodes/common/models/models";
import { SensorState } from "../../../nodes/common/sensors/SensorState";
import type { CameraInfo, Image } from "../../../nodes/common/sensors/sensorTypes";
import { StudentDetector } from "../../../nodes/common/models/StudentDetector";
import { createHarnessNode } from "../../../nodes/harness";
import { createPerceptionNode } from "../../../nodes/perception";
import type { CorrectorParams } from "../../../nodes/common/models/ModelProvider";
import { DEFAULT_SCENARIO } from "../../../sim/Scenario";
import { HarnessNet } from "../../../src/harness/models/HarnessNet";
import { Student } from "../../../src/harness/models/Student";
import { nsToStamp } from "../../../src/util/time";
import type { CameraIntrinsics, Vec3 } from "../../../src/vision/flowModel";
import { loadOpenCv } from "../../../src/vision/opencv";
import { VisionPipeline, type FrameInput } from "../../../src/vision/VisionPipeline";
import { FakeCorrector, FakeDetector, MS, fix, image, imu, vel } from "../fixtures";
import { SimRig } from "../SimRig";

/** A 64x64 textured scene shifted by `shift` px (deterministic), so Farneback has flow to measure. */
function scene(atNs: bigint, shift: number): Image {
  const im = image(atNs, { width: 64, height: 64, step: 192, data: new Uint8Array(64 * 64 * 3) });
  for (let y = 0; y < 64; y++) {
    for (let x = 0; x < 64; x++) {
      const v = 128 + 60 * Math.sin((x + shift) / 3) * Math.cos(y / 4);
      const i = (y * 64 + x) * 3;
      im.data[i] = v;
      im.data[i + 1] = v;
      im.data[i + 2] = v;
    }
  }
  return im;
}

function cameraInfo(atNs: bigint, k: number[], size = 256): CameraInfo & Record<string, unknown> {
  return {
    header: { stamp: nsToStamp(atNs), frame_id: "camera_optical" },
    height: size,
    width: size,
    distortion_model: "plumb_bob",
    d: [0, 0, 0, 0, 0],
    k,
    r: [1, 0, 0, 0, 1, 0, 0, 0, 1],
    p: [k[0] ?? 0, 0, k[2] ?? 0, 0, 0, k[4] ?? 0, k[5] ?? 0, 0, 0, 0, 1, 0],
    binning_x: 0,
    binning_y: 0,
    roi: { x_offset: 0, y_offset: 0, height: 0, width: 0, do_rectify: false },
  };
}

describe("HarnessCorrector: rotation compensation from camera intrinsics", () => {
  beforeAll(async () => {
    await tf.setBackend("cpu");
  });

  it("runs uncompensated until intrinsics arrive, then removes the gyro rotation with the camera pitch", async () => {
    const cv = await loadOpenCv();
    const built: Array<Readonly<CameraIntrinsics> | undefined> = [];
    const gyroOpt: Vec3[] = [];
    const pitch = 0.2;
    const corrector = new HarnessCorrector(new HarnessNet({ seed: 7 }), {
      cameraPitchRad: pitch,
      createVision: (k) => {
        built.push(k);
        const p = new VisionPipeline(cv, { width: 64, height: 64, rollout: k === undefined ? {} : { intrinsics: k } });
        const push = p.push.bind(p);
        p.push = (img, input: FrameInput) => {
          if (input.angularVelocityOpt !== undefined) gyroOpt.push({ ...input.angularVelocityOpt });
          return push(img, input);
        };
        return p;
      },
    });
    const detector = new StudentDetector(new Student({ channels: [4, 4, 4, 4], policyHidden: [8], seed: 5 }), 64, 64);
    const sensors = new SensorState();
    const wz = 0.5; // yaw rate, body FLU, rad/s
    const frame = (f: number): Correction => {
      const t = BigInt(f) * 33n * MS;
      sensors.onImu(imu(t, { angular_velocity: { x: 0, y: 0, z: wz } }));
      sensors.onFix(fix(t));
      sensors.onVel(vel(t, 4));
      const im = scene(t, 2 * f);
      const st = sensors.onFrame(t);
      return corrector.correct(im, detector.infer(im, st), st);
    };
    expect(built).toEqual([undefined]);
    expect(frame(0).rollout).toEqual({ status: "no-flow", rotationCompensated: false });
    expect(frame(1).rollout).toEqual({ status: "scaled", rotationCompensated: false });

    const k = { fx: 32, fy: 32, cx: 31.5, cy: 31.5 };
    corrector.setCameraIntrinsics(k);
    corrector.setCameraIntrinsics({ ...k }); // unchanged: no rebuild
    expect(built).toEqual([undefined, k]);
    // The rebuilt pipeline has no previous frame yet; from the next frame on it compensates.
    expect(frame(2).rollout).toEqual({ status: "no-flow", rotationCompensated: false });
    expect(frame(3).rollout).toEqual({ status: "scaled", rotationCompensated: true });
    expect(frame(4).rollout).toEqual({ status: "scaled", rotationCompensated: true });

    // bodyFluToOptical with pitch t (src/vision/flowModel.ts): w_opt = (-wy, -sin t wx - cos t wz, cos t wx - sin t wz).
    const last = gyroOpt.at(-1) as Vec3;
    expect(last.x).toBeCloseTo(0, 12);
    expect(last.y).toBeCloseTo(-Math.cos(pitch) * wz, 12);
    expect(last.z).toBeCloseTo(-Math.sin(pitch) * wz, 12);

    expect(() => corrector.setCameraIntrinsics({ fx: 0, fy: 32, cx: 0, cy: 0 })).toThrow("fx=0, fy=32");
    detector.dispose();
    corrector.dispose();
  });

  it("rejects a camera pitch outside [-pi/2, pi/2] and both vision options at once", async () => {
    const cv = await loadOpenCv();
    const harness = new HarnessNet({ seed: 1 });
    expect(() => new HarnessCorrector(harness, { ownsModel: false, cameraPitchRad: 2 })).toThrow("cameraPitchRad=2, expected a finite value in [-pi/2, pi/2]");
    const vision = new VisionPipeline(cv, { width: 64, height: 64 });
    expect(() => new HarnessCorrector(harness, { ownsModel: false, vision, createVision: () => vision })).toThrow("either vision or createVision");
    vision.dispose();
    harness.dispose();
  });
});

/** Fake corrector that records the intrinsics it is given and reports compensation once it has them. */
class IntrinsicsCorrector extends FakeCorrector implements Corrector {
  readonly intrinsics: CameraIntrinsics[] = [];
  override correct(image: Image, student: StudentOutputs, state: Parameters<Corrector["correct"]>[2]): Correction {
    return { ...super.correct(image, student, state), rollout: { status: "scaled", rotationCompensated: this.intrinsics.length > 0 } };
  }
  setCameraIntrinsics(k: Readonly<CameraIntrinsics>): void {
    this.intrinsics.push({ ...k });
  }
}

type DiagArray = { status: Array<{ name: string; level: number; message: string; values: Array<{ key: string; value: string }> }> };

describe("harness node: camera/camera_info", () => {
  it("subscribes with sensor-data QoS, passes K and camera_pitch_rad to the corrector, reports uncompensated rollouts until then", async () => {
    const r = new SimRig();
    const corrector = new IntrinsicsCorrector();
    const params: CorrectorParams[] = [];
    await r.add(createPerceptionNode({ createDetector: () => new FakeDetector() }), "perception");
    await r.add(
      createHarnessNode({
        createCorrector: (p) => {
          params.push(p);
          return corrector;
        },
      }),
      "harness",
      { imagined_rollout: true, expected_width: 256, expected_height: 256 },
    );
    expect(params).toHaveLength(1);
    // Default: the embedded simulator's camera pitch (sim/Scenario.ts, 5 deg at the time of writing).
    expect(params[0]!.cameraPitchRad).toBeCloseTo((DEFAULT_SCENARIO.camera.pitch_deg * Math.PI) / 180, 12);
    const diag = r.record<DiagArray>("/diagnostics", "diagnostic_msgs/msg/DiagnosticArray");
    const harnessStatus = () => diag.map((d) => d.msg.status.find((s) => s.name === "harness: harness")).filter((s) => s !== undefined).at(-1)!;
    const value = (key: string) => harnessStatus().values.find((v) => v.key === key)?.value;

    r.runTo(1100n * MS);
    expect(harnessStatus().level).toBe(1); // WARN
    expect(harnessStatus().message).toContain("imagined rollout without rotation compensation: no camera/camera_info yet");
    expect(value("camera_info")).toBe("none yet");
    expect(value("rotation_compensated")).toBe("false");
    expect(value("rollout_status")).toBe("scaled");

    const qos = { history: "keep_last", depth: 5, reliability: "best_effort", durability: "volatile" } as const;
    const info = r.graph.createNode("camera_driver").createPublisher("sensor_msgs/msg/CameraInfo", "/camera/camera_info", { qos });
    // A best-effort publisher only matches a best-effort (sensor-data) subscription (ROS 2 QoS
    // compatibility): the harness node's and the perception node's (which honours the size, issue 14).
    expect(info.subscriptionCount()).toBe(2);
    info.publish(cameraInfo(1100n * MS, [0, 0, 0, 0, 0, 0, 0, 0, 0])); // uncalibrated: dropped
    info.publish(cameraInfo(1100n * MS, [200, 0, 127.5, 0, 201, 127.5, 0, 0, 1], 512)); // other resolution: dropped
    info.publish(cameraInfo(1100n * MS, [200, 0, 127.5, 0, 201, 126.5, 0, 0, 1]));
    info.publish(cameraInfo(1110n * MS, [200, 0, 127.5, 0, 201, 126.5, 0, 0, 1])); // same K: not passed again
    r.runTo(2200n * MS);
    expect(corrector.intrinsics).toEqual([{ fx: 200, fy: 201, cx: 127.5, cy: 126.5 }]);
    expect(harnessStatus().level).toBe(0); // OK
    expect(value("camera_info")).toBe("fx=200 fy=201 cx=127.5 cy=126.5");
    expect(value("rotation_compensated")).toBe("true");
    expect(value("drops/camera/camera_info:bad_content")).toBe("1");
    expect(value("drops/camera/camera_info:resolution")).toBe("1");
    await r.shutdown();
  });

  it("takes camera_pitch_rad as a parameter and rejects values outside [-pi/2, pi/2]", async () => {
    const r = new SimRig();
    const params: CorrectorParams[] = [];
    await r.add(createHarnessNode({ createCorrector: (p) => (params.push(p), new FakeCorrector()) }), "harness", { camera_pitch_rad: 0.3 });
    expect(params[0]!.cameraPitchRad).toBe(0.3);
    await expect(r.add(createHarnessNode({ createCorrector: () => new FakeCorrector() }), "harness2", { camera_pitch_rad: 2 })).rejects.toThrow(
      "camera_pitch_rad'=2 is out of range [-1.5707963267948966, 1.5707963267948966]",
    );
    await r.shutdown();
  });
});

describe("harness node: camera/camera_info sets the image size", () => {
  it("by default takes any size: the last valid camera_info's size, images of another size dropped until a matching camera_info", async () => {
    const r = new SimRig();
    const corrector = new IntrinsicsCorrector();
    await r.add(createHarnessNode({ createCorrector: () => corrector }), "harness");
    expect(r.launched[0]!.node.getParameter("expected_width").value).toBe(0);
    const diag = r.record<DiagArray>("/diagnostics", "diagnostic_msgs/msg/DiagnosticArray");
    const value = (key: string) =>
      diag
        .map((d) => d.msg.status.find((s) => s.name === "harness: harness"))
        .filter((s) => s !== undefined)
        .at(-1)!
        .values.find((v) => v.key === key)?.value;
    const qos = { history: "keep_last", depth: 5, reliability: "best_effort", durability: "volatile" } as const;
    const info = r.graph.createNode("camera_driver").createPublisher("sensor_msgs/msg/CameraInfo", "/camera/camera_info", { qos });
    // The rig's camera is 256x256; a 640x480 calibration is valid (any size), so its images no longer fit it.
    info.publish(cameraInfo(100n * MS, [500, 0, 319.5, 0, 500, 239.5, 0, 0, 1], 640));
    r.runTo(1100n * MS);
    expect(corrector.intrinsics).toEqual([{ fx: 500, fy: 500, cx: 319.5, cy: 239.5 }]);
    const dropped = Number(value("drops/camera/image_raw:resolution"));
    expect(dropped).toBeGreaterThan(10);
    info.publish(cameraInfo(1100n * MS, [200, 0, 127.5, 0, 201, 127.5, 0, 0, 1]));
    r.runTo(2200n * MS); // /diagnostics is published once a second
    expect(corrector.intrinsics.at(-1)).toEqual({ fx: 200, fy: 201, cx: 127.5, cy: 127.5 });
    const settled = Number(value("drops/camera/image_raw:resolution"));
    expect(settled).toBeLessThanOrEqual(dropped + 5);
    // Once the calibration matches the camera again, no more images are dropped for their size.
    r.runTo(4200n * MS);
    expect(Number(value("drops/camera/image_raw:resolution"))).toBe(settled);
    await r.shutdown();
  });
});
