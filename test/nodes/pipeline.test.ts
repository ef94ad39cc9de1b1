import { controllerNode } from "../../nodes/controller";
import { createHarnessNode } from "../../nodes/harness";
import { createPerceptionNode } from "../../nodes/perception";
import { safetyNode } from "../../nodes/safety";
import type { HarnessCorrectionMsg } from "../../nodes/common/models/studentOutputMsg";
import type { TwistStamped } from "../../nodes/common/sensors/sensorTypes";
import type { LifecycleRosNode } from "../../src/ros/graph/types";
import { FakeCorrector, FakeDetector, MS } from "./fixtures";
import { SimRig } from "./SimRig";

type Diag = { status: Array<{ name: string; level: number; message: string }> };

async function rig(correction: boolean) {
  const r = new SimRig();
  const corrector = new FakeCorrector();
  await r.add(createPerceptionNode({ createDetector: () => new FakeDetector() }), "perception");
  await r.add(createHarnessNode({ createCorrector: () => corrector }), "harness", { correction_enabled: correction });
  await r.add(controllerNode, "controller", { max_accel_m_s2: 0, mode: "policy" });
  const safety = await r.add(safetyNode, "safety");
  const cmd = r.record<TwistStamped>("/cmd_vel", "geometry_msgs/msg/TwistStamped");
  const corr = r.record<HarnessCorrectionMsg>("/harness/correction", "drone_harness_msgs/msg/HarnessCorrection");
  const diag = r.record<Diag>("/diagnostics", "diagnostic_msgs/msg/DiagnosticArray");
  return { r, corrector, cmd, corr, diag, safety };
}

describe("closed pipeline on the embedded graph (lock-step sim time)", () => {
  it("flies the corrected action with the harness on (climb) and the student's with it off (cruise)", async () => {
    for (const [on, expectVx, expectVz] of [[true, 4 * 0.35, 1.5], [false, 4, 0]] as const) {
      const { r, cmd, corr } = await rig(on);
      r.runTo(1000n * MS);
      const last = cmd.at(-1)!.msg;
      expect(last.header.frame_id).toBe("base_link");
      expect(last.twist.linear.x).toBeCloseTo(expectVx, 6);
      expect(last.twist.linear.z).toBeCloseTo(expectVz, 6);
      // Same pipeline in both arms: the correction is computed and reported either way.
      expect(corr.length).toBeGreaterThan(20);
      expect(corr.at(-1)!.msg.correction_enabled).toBe(on);
      expect(corr.at(-1)!.msg.max_abs_delta).toBeCloseTo(0.5, 6);
      expect(corr.at(-1)!.msg.risk).toBeCloseTo(0.8, 6);
      await r.shutdown();
    }
  });

  it("gives the harness the state vector the student read and the frame-time sensor state", async () => {
    const { r, corrector } = await rig(true);
    r.runTo(600n * MS);
    // FakeDetector writes altitude (fix 500 m - first fix 500 m = 0) and GPS vx (3 m/s) into its state.
    expect(corrector.studentStates.at(-1)).toEqual([0, 3, 0, 0]);
    const st = corrector.states.at(-1)!;
    expect(st.altitude_m).toBe(0);
    expect(st.velocityEnu_m_s).toEqual([3, 0, 0]);
    expect(st.imu).toHaveLength(3);
    expect(st.frameDt_s).toBeCloseTo(0.03, 9);
    await r.shutdown();
  });

  it("copies the camera stamp into the command published for that frame", async () => {
    const { r, cmd } = await rig(true);
    r.runTo(600n * MS);
    // Frames at multiples of 30 ms; the command for a frame is published in the same step.
    const fromFrames = cmd.filter((c) => c.atNs % (30n * MS) === 0n && c.msg.twist.linear.z > 0);
    expect(fromFrames.length).toBeGreaterThan(5);
    for (const c of fromFrames) expect(BigInt(c.msg.header.stamp.sec) * 1_000_000_000n + BigInt(c.msg.header.stamp.nanosec)).toBe(c.atNs);
    await r.shutdown();
  });

  it("publishes no /cmd_vel before the nodes are active", async () => {
    const r = new SimRig();
    const nodes = [
      await r.add(createPerceptionNode({ createDetector: () => new FakeDetector() }), "perception", {}, false),
      await r.add(createHarnessNode({ createCorrector: () => new FakeCorrector() }), "harness", {}, false),
      await r.add(controllerNode, "controller", { mode: "policy" }, false),
      await r.add(safetyNode, "safety", {}, false),
    ];
    const cmd = r.record<TwistStamped>("/cmd_vel", "geometry_msgs/msg/TwistStamped");
    const raw = r.record<TwistStamped>("/cmd_vel_raw", "geometry_msgs/msg/TwistStamped");
    for (const n of nodes) await (n.node as LifecycleRosNode).configure();
    r.runTo(500n * MS);
    expect(cmd).toHaveLength(0);
    expect(raw).toHaveLength(0);
    for (const n of nodes) await (n.node as LifecycleRosNode).activate();
    r.runTo(1000n * MS);
    expect(cmd.length).toBeGreaterThan(0);
    for (const n of nodes) await (n.node as LifecycleRosNode).deactivate();
    const before = cmd.length;
    r.runTo(1500n * MS);
    expect(cmd.length).toBe(before);
    await r.shutdown();
  });
});

describe("closed pipeline on the embedded graph: safety holds hover", () => {
  it("camera stopped -> hover on /cmd_vel within 200 ms of sim time, reason on /diagnostics, recovery after", async () => {
    const { r, cmd, diag } = await rig(true);
    r.runTo(990n * MS);
    expect(cmd.at(-1)!.msg.twist.linear.z).toBeGreaterThan(0);
    const lastFrameNs = 990n * MS; // 990 = 33 * 30: the last camera frame
    r.enabled.camera = false;
    r.runTo(1500n * MS);
    const firstHover = cmd.find((c) => c.atNs > lastFrameNs && c.msg.twist.linear.x === 0 && c.msg.twist.linear.z === 0);
    expect(firstHover).toBeDefined();
    expect(firstHover!.atNs - lastFrameNs).toBeLessThanOrEqual(200n * MS);
    // After the first hover, every command is hover while the camera is down.
    expect(cmd.filter((c) => c.atNs >= firstHover!.atNs).every((c) => c.msg.twist.linear.x === 0 && c.msg.twist.linear.z === 0)).toBe(true);
    const reason = diag.map((d) => d.msg.status.find((s) => s.name === "safety: watchdog")).find((s) => s !== undefined && s.level === 2);
    expect(reason?.message).toMatch(/HOVER: camera: last message .* ms ago/);
    r.enabled.camera = true;
    r.runTo(1800n * MS);
    expect(cmd.at(-1)!.msg.twist.linear.z).toBeGreaterThan(0);
    await r.shutdown();
  });

  it("hovers when the harness runs away (max|delta| > 0.6 sustained) and the correction is applied", async () => {
    const { r, corrector, cmd, diag } = await rig(true);
    r.runTo(500n * MS);
    corrector.maxDelta = 0.9;
    r.runTo(1200n * MS);
    const last = cmd.at(-1)!.msg;
    expect([last.twist.linear.x, last.twist.linear.z]).toEqual([0, 0]);
    expect(diag.some((d) => d.msg.status.some((s) => s.message.includes("harness: max|delta|=0.900")))).toBe(true);
    await r.shutdown();
  });

  it("holds hover while the controller is stopped and respawned, then follows the respawned controller", async () => {
    const { r, cmd } = await rig(true);
    r.runTo(600n * MS);
    const controller = r.launched.find((l) => l.node.name === "controller")!;
    await controller.stop();
    r.launched.splice(r.launched.indexOf(controller), 1);
    r.runTo(1000n * MS);
    const hover = cmd.find((c) => c.atNs > 600n * MS && c.msg.twist.linear.x === 0 && c.msg.twist.linear.z === 0);
    expect(hover!.atNs - 600n * MS).toBeLessThanOrEqual(200n * MS);
    expect(cmd.filter((c) => c.atNs >= hover!.atNs).every((c) => c.msg.twist.linear.z === 0)).toBe(true);
    // respawn (launch respawn="true"): a new controller node with the same name
    await r.add(controllerNode, "controller", { max_accel_m_s2: 0, mode: "policy" });
    r.runTo(1300n * MS);
    expect(cmd.at(-1)!.msg.twist.linear.z).toBeCloseTo(1.5, 6);
    await r.shutdown();
  });
});
