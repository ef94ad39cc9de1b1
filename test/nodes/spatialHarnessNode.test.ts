/**
 * The harness node on the pipeline detector's cells (issue 13): with a spatial harness in
 * spatial_harness_dir it publishes corrected cells (near-threat never below the student's), the
 * correction_enabled switch passes the student's cells through with the correction still
 * reported, and without a harness file the cells pass through with the reason in /diagnostics.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createHarnessNode } from "../../nodes/harness";
import { createPerceptionNode } from "../../nodes/perception";
import { ThreatDetector } from "../../nodes/common/models/ThreatDetector";
import type { HarnessCorrectionMsg, StudentOutputMsg } from "../../nodes/common/models/studentOutputMsg";
import { initBackend } from "../../src/harness/backend/initBackend";
import { saveModel } from "../../src/harness/modelfile";
import { Teacher } from "../../src/harness/models/Teacher";
import { SpatialHarness } from "../../src/harness/spatial/SpatialHarness";
import { FakeCorrector, MS, image } from "./fixtures";
import { SimRig } from "./SimRig";

type Diag = { status: Array<{ name: string; values: Array<{ key: string; value: string }> }> };

let dir = "";

beforeAll(async () => {
  await initBackend({ prefer: "wasm" });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "dh-spatial-node-"));
  // A harness whose risk is high everywhere (bias of the risk read-out), so the correction shows.
  const h = new SpatialHarness({ seed: 9 });
  h.params.get("risk/b").assign(h.params.get("risk/b").add(4));
  await saveModel(dir, h, { scenario: "test", seed: 9 });
  h.dispose();
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function rig(harnessDir: string, correction: boolean) {
  const r = new SimRig();
  const detector = new Teacher({ channels: [4, 4, 4], headHidden: 4, seed: 3, threatLogit: true });
  await r.add(createPerceptionNode({ createDetector: () => new ThreatDetector(detector, 256, 256) }), "perception");
  await r.add(createHarnessNode({ createCorrector: () => new FakeCorrector() }), "harness", { spatial_harness_dir: harnessDir, correction_enabled: correction });
  const student = r.record<StudentOutputMsg>("/harness/student_output", "drone_harness_msgs/msg/StudentOutput");
  const policy = r.record<StudentOutputMsg>("/harness/policy", "drone_harness_msgs/msg/StudentOutput");
  const corr = r.record<HarnessCorrectionMsg>("/harness/correction", "drone_harness_msgs/msg/HarnessCorrection");
  const diag = r.record<Diag>("/diagnostics", "diagnostic_msgs/msg/DiagnosticArray");
  return { r, student, policy, corr, diag };
}

const stampOf = (m: StudentOutputMsg): string => `${m.header.stamp.sec}.${m.header.stamp.nanosec}`;

/**
 * Every published frame is corrected, has `cells` near-threat cells, and none below the student's
 * for the same frame; returns how many cells the correction raised.
 */
function correctedCellsRaised(student: ReadonlyArray<{ msg: StudentOutputMsg }>, policy: ReadonlyArray<{ msg: StudentOutputMsg }>, cells: number): number {
  const raw = new Map(student.map((s) => [stampOf(s.msg), s.msg]));
  let raised = 0;
  for (const { msg } of policy) {
    expect(msg.corrected).toBe(true);
    const s = raw.get(stampOf(msg))!;
    expect(msg.threat_probs.length).toBe(cells);
    for (let c = 0; c < cells; c++) {
      expect(msg.threat_probs[c]!).toBeGreaterThanOrEqual(s.threat_probs[c]! - 1e-5);
      if (msg.threat_probs[c]! > s.threat_probs[c]! + 1e-4) raised++;
    }
  }
  return raised;
}

describe("harness node with the spatial harness (pipeline detector)", () => {
  it("raises the near-threat cells where it corrects, and reports the correction", async () => {
    const { r, student, policy, corr, diag } = await rig(dir, true);
    r.runTo(1100n * MS);
    expect(policy.length).toBeGreaterThan(10);
    const raised = correctedCellsRaised(student, policy, 32 * 32);
    // The GPS says 3 m/s forward, so |ds/dt| > 0 and a risky region gets a delta.
    expect(raised).toBeGreaterThan(0);
    const last = corr.at(-1)!.msg;
    expect(last.correction_enabled).toBe(true);
    expect(last.rollout_length).toBe(1);
    expect(last.risk).toBeGreaterThan(0.9);
    expect(last.max_abs_delta).toBeGreaterThan(0);
    expect(last.delta_norm_detection).toBeLessThanOrEqual(0.5 + 1e-6);
    const values = diag.map((d) => d.msg.status.find((st) => st.name === "harness: harness")).filter((st) => st !== undefined).at(-1)!.values;
    // The camera frame reaches the harness before its detections: the image side was computed
    // ahead for every frame but the first (which creates the runtime).
    const [, reused, steps] = /^(\d+) of (\d+) frames$/.exec(values.find((v) => v.key === "image_side_prepared_ahead")?.value ?? "") ?? [];
    expect(Number(reused)).toBeGreaterThan(10);
    expect(Number(reused)).toBe(Number(steps) - 1);
    await r.shutdown();
  });

  it("with correction_enabled false passes the student's cells and still reports the delta", async () => {
    const { r, student, policy, corr } = await rig(dir, false);
    r.runTo(500n * MS);
    const raw = new Map(student.map((s) => [stampOf(s.msg), s.msg]));
    for (const { msg } of policy) {
      expect(msg.corrected).toBe(false);
      expect(Array.from(msg.threat_probs)).toEqual(Array.from(raw.get(stampOf(msg))!.threat_probs));
    }
    expect(corr.at(-1)!.msg.correction_enabled).toBe(false);
    expect(corr.at(-1)!.msg.max_abs_delta).toBeGreaterThan(0);
    await r.shutdown();
  });

  it("without a spatial harness file passes the cells through and says why", async () => {
    const { r, policy, diag } = await rig(path.join(dir, "missing"), true);
    r.runTo(1100n * MS);
    expect(policy.length).toBeGreaterThan(0);
    expect(policy.every((p) => !p.msg.corrected)).toBe(true);
    const values = diag.map((d) => d.msg.status.find((s) => s.name === "harness: harness")).filter((s) => s !== undefined).at(-1)!.values;
    expect(values.find((v) => v.key === "mode")?.value).toMatch(/pass-through \(no spatial harness in .*missing\)/);
    await r.shutdown();
  });
});

describe("harness node with the spatial harness at 1280x720", () => {
  it("corrects frames whose cell grid is not whole regions (160x90 cells) on the frame's own grid", async () => {
    const r = new SimRig();
    const data = new Uint8Array(1280 * 720 * 3).map((_, i) => (i * 31 + (i >> 11)) % 251);
    r.frame = (t) => image(t, { width: 1280, height: 720, step: 3 * 1280, data });
    const detector = new Teacher({ channels: [4, 4, 4], headHidden: 4, seed: 3, threatLogit: true });
    await r.add(createPerceptionNode({ createDetector: () => new ThreatDetector(detector, 0, 0) }), "perception");
    // The harness node checks the frame size against expected_width / expected_height (256 by
    // default, as config/harness.yaml pins for the sim); 0 takes any size.
    await r.add(createHarnessNode({ createCorrector: () => new FakeCorrector() }), "harness", { spatial_harness_dir: dir, correction_enabled: true, expected_width: 0, expected_height: 0 });
    const student = r.record<StudentOutputMsg>("/harness/student_output", "drone_harness_msgs/msg/StudentOutput");
    const policy = r.record<StudentOutputMsg>("/harness/policy", "drone_harness_msgs/msg/StudentOutput");
    r.runTo(220n * MS);
    expect(policy.length).toBeGreaterThan(2);
    const raised = correctedCellsRaised(student, policy, 90 * 160);
    expect(raised).toBeGreaterThan(0);
    await r.shutdown();
  });
});
