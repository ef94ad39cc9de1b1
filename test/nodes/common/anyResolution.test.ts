/**
 * The perception node's detector at any camera resolution (issue 14 item 1): StudentDetector pads
 * to multiples of 64 by reflection and crops the cell grid back to the frame's ceil(H/8) x
 * ceil(W/8) cells; the perception node follows the frame's grid and honours camera/camera_info.
 */
import { StudentDetector } from "../../../nodes/common/models/StudentDetector";
import { ThreatDetector } from "../../../nodes/common/models/ThreatDetector";
import { Teacher } from "../../../src/harness/models/Teacher";
import { SensorState } from "../../../nodes/common/sensors/SensorState";
import type { StudentOutputMsg } from "../../../nodes/common/models/studentOutputMsg";
import { initBackend } from "../../../src/harness/backend";
import { Student } from "../../../src/harness/models/Student";
import { activePerceptionAnySize } from "./perceptionWithStudent";
import { image } from "../fixtures";

beforeAll(async () => {
  await initBackend({ warn: () => undefined });
});

describe("StudentDetector at any resolution", () => {
  it("accepts any camera resolution: 640x480 and 1280x720 give 8 px cell grids of the frame's own size", () => {
    const det = new StudentDetector(new Student({ channels: [4, 4, 4, 4], policyHidden: [8], seed: 1 }), 0, 0);
    const state = new SensorState().onFrame(0n);
    for (const [w, h] of [[640, 480], [1280, 720]] as const) {
      const data = new Uint8Array(w * h * 3).map((_, i) => (i * 31) % 251);
      const out = det.infer(image(0n, { width: w, height: h, step: 3 * w, data }), state);
      expect([out.gridRows, out.gridCols, det.gridRows, det.gridCols]).toEqual([h / 8, w / 8, h / 8, w / 8]);
      expect(out.cellProbs.length).toBe((h / 8) * (w / 8) * 4);
      expect(out.cellProbs.every(Number.isFinite)).toBe(true);
    }
    det.dispose();
  });

  it("a frame whose sides are not multiples of 32 equals the reflection-padded frame, cropped to its cells", () => {
    // 100x64 -> padded to 128x64 by reflection about the last column (numpy "reflect"): column
    // 100 + k copies column 98 - k. The first 13 cell columns must match the padded frame's.
    const student = new Student({ channels: [4, 4, 4, 4], policyHidden: [8], seed: 2 });
    const det = new StudentDetector(student, 0, 0, { ownsModel: false });
    const state = new SensorState().onFrame(0n);
    const small = new Uint8Array(100 * 64 * 3).map((_, i) => (i * 7 + (i >> 5)) % 253);
    const big = new Uint8Array(128 * 64 * 3);
    for (let y = 0; y < 64; y++) for (let x = 0; x < 128; x++) for (let c = 0; c < 3; c++) big[(y * 128 + x) * 3 + c] = small[(y * 100 + (x < 100 ? x : 198 - x)) * 3 + c]!;
    const a = Float32Array.from(det.infer(image(0n, { width: 100, height: 64, step: 300, data: small }), state).cellProbs);
    const b = det.infer(image(0n, { width: 128, height: 64, step: 384, data: big }), state).cellProbs;
    expect(a.length).toBe(8 * 13 * 4);
    for (let r = 0; r < 8; r++) for (let c = 0; c < 13; c++) for (let k = 0; k < 4; k++) expect(a[(r * 13 + c) * 4 + k]).toBeCloseTo(b[(r * 16 + c) * 4 + k]!, 5);
    // A detector configured for one size still refuses others.
    expect(() => new StudentDetector(student, 64, 64, { ownsModel: false }).infer(image(0n, { width: 100, height: 64, step: 300, data: small }), state)).toThrow("image 100x64, expected 64x64");
    student.dispose();
  });
});

describe("ThreatDetector (the pipeline detector) at any resolution", () => {
  it("640x480 and 1280x720 give the frame's own 8 px grid of class and threat cells", () => {
    const det = new ThreatDetector(new Teacher({ channels: [4, 4, 4], headHidden: 4, threatLogit: true, seed: 1 }), 0, 0);
    const state = new SensorState().onFrame(0n);
    for (const [w, h] of [[640, 480], [1280, 720]] as const) {
      const data = new Uint8Array(w * h * 3).map((_, i) => (i * 31) % 251);
      const out = det.infer(image(0n, { width: w, height: h, step: 3 * w, data }), state);
      expect([out.gridRows, out.gridCols, det.gridRows, det.gridCols]).toEqual([h / 8, w / 8, h / 8, w / 8]);
      expect(out.cellProbs.length).toBe((h / 8) * (w / 8) * 4);
      expect(out.threatProbs!.length).toBe((h / 8) * (w / 8));
      expect(out.threatProbs!.every((p) => p >= 0 && p <= 1)).toBe(true);
    }
    det.dispose();
  });

  it("a side that is not a multiple of 8 equals the edge-repeated frame", () => {
    const teacher = new Teacher({ channels: [4, 4, 4], headHidden: 4, threatLogit: true, seed: 2 });
    const det = new ThreatDetector(teacher, 0, 0, { ownsModel: false });
    const state = new SensorState().onFrame(0n);
    const small = new Uint8Array(60 * 40 * 3).map((_, i) => (i * 7 + (i >> 5)) % 253);
    const big = new Uint8Array(64 * 40 * 3);
    for (let y = 0; y < 40; y++) for (let x = 0; x < 64; x++) for (let c = 0; c < 3; c++) big[(y * 64 + x) * 3 + c] = small[(y * 60 + Math.min(x, 59)) * 3 + c]!;
    const a = Float32Array.from(det.infer(image(0n, { width: 60, height: 40, step: 180, data: small }), state).threatProbs!);
    const b = det.infer(image(0n, { width: 64, height: 40, step: 192, data: big }), state).threatProbs!;
    expect(a.length).toBe(5 * 8);
    expect(Array.from(a)).toEqual(Array.from(b));
    expect(() => new ThreatDetector(teacher, 64, 64, { ownsModel: false }).infer(image(0n, { width: 60, height: 40, step: 180, data: small }), state)).toThrow("image 60x40, expected 64x64");
    teacher.dispose();
  });
});

describe("perception node at any resolution, CameraInfo honoured", () => {
  it("runs 640x480 frames on a 60x80 grid, then drops frames that disagree with camera_info and follows its size", async () => {
    const { graph, launched, dispose } = await activePerceptionAnySize();
    expect([launched.node.getParameter("expected_width").value, launched.node.getParameter("expected_height").value]).toEqual([0, 0]);
    const frame = (ms: number, w: number, h: number) => image(BigInt(ms) * 1_000_000n, { width: w, height: h, step: 3 * w, data: new Uint8Array(3 * w * h).fill(120) });
    const info = (w: number, h: number) => ({
      header: { stamp: { sec: 0, nanosec: 0 }, frame_id: "camera_optical" },
      height: h,
      width: w,
      distortion_model: "plumb_bob",
      d: [0, 0, 0, 0, 0],
      k: [500, 0, w / 2, 0, 500, h / 2, 0, 0, 1],
      r: [1, 0, 0, 0, 1, 0, 0, 0, 1],
      p: [500, 0, w / 2, 0, 0, 500, h / 2, 0, 0, 0, 1, 0],
      binning_x: 0,
      binning_y: 0,
      roi: { x_offset: 0, y_offset: 0, height: 0, width: 0, do_rectify: false },
    });
    graph.inject("/camera/image_raw", "sensor_msgs/msg/Image", frame(10, 640, 480));
    let so = graph.messagesOn<StudentOutputMsg>("/harness/student_output");
    expect(so.map((m) => [m.grid_rows, m.grid_cols, m.image_width, m.image_height])).toEqual([[60, 80, 640, 480]]);
    graph.inject("/camera/camera_info", "sensor_msgs/msg/CameraInfo", info(1280, 720));
    graph.inject("/camera/image_raw", "sensor_msgs/msg/Image", frame(20, 640, 480));
    expect(graph.messagesOn("/harness/obstacles_raw")).toHaveLength(1);
    graph.inject("/camera/image_raw", "sensor_msgs/msg/Image", frame(30, 1280, 720));
    so = graph.messagesOn<StudentOutputMsg>("/harness/student_output");
    expect(so.map((m) => [m.grid_rows, m.grid_cols])).toEqual([[60, 80], [90, 160]]);
    expect(graph.messagesOn("/harness/obstacles_raw")).toHaveLength(2);
    dispose();
  });
});
