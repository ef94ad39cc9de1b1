import { createPerceptionNode } from "../../nodes/perception";
import type { Detector, StudentOutputs } from "../../nodes/common/models/models";
import type { Image } from "../../nodes/common/sensors/sensorTypes";
import type { FrameState } from "../../nodes/common/sensors/SensorState";
import type { Detection2DArray } from "../../src/control/visionTypes";
import { FakeDetector, MS, image } from "./fixtures";
import { SimRig } from "./SimRig";
import { createSimNode, type SimLaunchedNode } from "../../nodes/sim";
import { imageDigest } from "../../src/control/imageDigest";
import { EmbeddedGraph } from "../../src/ros/graph";
import { QOS_DEFAULT, QOS_SENSOR_DATA } from "../../src/ros/graph/types";
import { loadScenarioFile } from "../../sim/io/loadScenarioFile";
import { between, isHover, startFlight } from "../faults/flight";

/** Throws on every third frame (a model bug, an OpenCV/tfjs error), otherwise the fake student. */
class FlakyDetector implements Detector {
  private readonly inner = new FakeDetector();
  readonly gridRows = this.inner.gridRows;
  readonly gridCols = this.inner.gridCols;
  readonly numClasses = this.inner.numClasses;
  private n = 0;
  infer(img: Image, state: FrameState): StudentOutputs {
    if (++this.n % 3 === 0) throw new Error("simulated inference failure");
    return this.inner.infer(img, state);
  }
}

describe("faults inside the nodes (issue 8)", () => {
  it("a model that throws inside the callback: frame dropped and counted, the node keeps running", async () => {
    const r = new SimRig();
    await r.add(createPerceptionNode({ createDetector: () => new FlakyDetector() }), "perception");
    const raw = r.record<Detection2DArray>("/harness/obstacles_raw", "vision_msgs/msg/Detection2DArray");
    const diag = r.record<{ status: Array<{ values: Array<{ key: string; value: string }> }> }>("/diagnostics", "diagnostic_msgs/msg/DiagnosticArray");
    r.runTo(1200n * MS); // 40 frames: every third throws
    r.enabled.camera = false;
    r.runTo(2000n * MS); // the next 1 Hz diagnostics include all 40 frames
    expect(raw).toHaveLength(27);
    expect(r.graph.callbackErrors).toBe(0);
    expect(diag.at(-1)!.msg.status[0]!.values).toContainEqual({ key: "drops/camera/image_raw:callback_error", value: "13" });
    await r.shutdown();
  });

  it("a 10x camera flood between executor turns is bounded by the sensor-data QoS depth (keep last 5)", async () => {
    const r = new SimRig();
    const detector = new FakeDetector();
    await r.add(createPerceptionNode({ createDetector: () => detector }), "perception");
    r.enabled.camera = false;
    r.runTo(100n * MS);
    const cam = r.graph.createNode("flood").createPublisher("sensor_msgs/msg/Image", "/camera/image_raw", {
      qos: { history: "keep_last", depth: 5, reliability: "best_effort", durability: "volatile" },
    });
    for (let k = 0; k < 50; k++) cam.publish(image(100n * MS + BigInt(k) * MS));
    r.graph.spinUntilIdle();
    // Only the newest 5 were still queued when the executor ran; they are processed in order.
    expect(detector.calls).toBe(5);
    expect(detector.states).toHaveLength(5);
    await r.shutdown();
  });
});

/**
 * camera_frozen_pixels (sim/faults): from 0.6 s to 1.4 s of a 2.2 s lock-step flight the camera
 * keeps the pixels of its last good frame under fresh stamps. The real nodes with the fake models
 * of test/faults/flight.ts (cruise, 4 m/s forward) and the safety node with
 * frozen_image_timeout_s = 0.15 (config/safety.yaml). Bound: the repeated frame arrived at or
 * before 0.6 s, so hover is due by 0.6 + 0.15 + check_period_s 0.05 = 0.8 s of sim time.
 */
describe("frozen pixels with fresh stamps (camera_frozen_pixels)", () => {
  const START = 600n * MS;
  const END = 1400n * MS;
  const FAULT = [{ kind: "camera_frozen_pixels" as const, start_s: 0.6, duration_s: 0.8 }];
  type Diag = { status: Array<{ name: string; level: number; message: string }> };

  it("hover within frozen_image_timeout_s + check_period_s, reason logged once and on /diagnostics, no collision, cruise again when the pixels change", async () => {
    const rig = await startFlight({ faults: FAULT, safetyParams: { frozen_image_timeout_s: 0.15 } });
    const reasons: Array<{ tNs: bigint; level: number; message: string }> = [];
    rig.graph.createNode("diag_rec").createSubscription<Diag>("diagnostic_msgs/msg/DiagnosticArray", "/diagnostics", { qos: { ...QOS_DEFAULT, depth: 100 } }, (m) => {
      for (const st of m.status) if (st.name === "safety: watchdog") reasons.push({ tNs: rig.sim.controller.timeNs(), level: st.level, message: st.message });
    });
    const logs: string[] = [];
    rig.graph.createNode("log_rec").createSubscription<{ name: string; msg: string }>("rcl_interfaces/msg/Log", "/rosout", { qos: { ...QOS_DEFAULT, depth: 100 } }, (m) => {
      if (m.name.endsWith("safety")) logs.push(m.msg);
    });
    try {
      rig.fly(2.2);
      const before = between(rig.cmd, START - 300n * MS, START);
      expect(before.length).toBeGreaterThan(3);
      expect(before.every((c) => !isHover(c))).toBe(true);
      const firstHover = rig.cmd.find((c) => c.tNs >= START && isHover(c));
      expect(firstHover).toBeDefined();
      expect(firstHover!.tNs - START).toBeLessThanOrEqual(200n * MS);
      // A real detection, not an early stale verdict: not before the timeout has run out.
      expect(firstHover!.tNs - START).toBeGreaterThan(100n * MS);
      const during = between(rig.cmd, START + 200n * MS, END);
      expect(during.length).toBeGreaterThanOrEqual(11);
      expect(during.filter((c) => !isHover(c))).toEqual([]);
      // The first frame after the fault has new pixels: cruise again within one frame + one check.
      const after = between(rig.cmd, END + 100n * MS, 2200n * MS);
      expect(after.length).toBeGreaterThan(3);
      expect(after.every((c) => Math.abs(c.vx - 4) < 1e-9)).toBe(true);
      expect(rig.sim.controller.sim.collision).toBeUndefined();
      expect(rig.graph.callbackErrors).toBe(0);
      for (const [topic, q] of rig.maxQueue) expect({ topic, ok: q.length <= q.depth }).toEqual({ topic, ok: true });
      // 0.8 s at 30 Hz: 24 frames republished with the old pixels.
      expect(rig.sim.faults.counters.framesFrozenPixels).toBeGreaterThanOrEqual(23);
      const frozen = reasons.filter((r) => r.message.includes("camera frozen: identical pixels for"));
      expect(frozen.length).toBeGreaterThan(0);
      expect(frozen[0]!.level).toBe(2);
      expect(frozen[0]!.message).toMatch(/HOVER: camera frozen: identical pixels for 0\.\d\d s with advancing stamps \(\d+ frames, frozen_image_timeout_s=0\.15\)/);
      // Published at once on the change (then at 1 Hz): the first within the hover bound.
      expect(frozen[0]!.tNs - START).toBeLessThanOrEqual(200n * MS);
      // One warning for the whole burst (not one per frame or per check), one line at recovery.
      expect(logs.filter((l) => l.includes("camera frozen"))).toHaveLength(1);
      expect(logs.filter((l) => l.includes("inputs fresh again")).length).toBeGreaterThanOrEqual(1);
      const passing = reasons.filter((r) => r.tNs > END && r.message.endsWith("passing commands"));
      expect(passing.length).toBeGreaterThan(0);
    } finally {
      await rig.shutdown();
    }
  });

  it("with the check off (frozen_image_timeout_s = 0) the same fault passes as a live camera", async () => {
    const rig = await startFlight({ faults: FAULT, safetyParams: { frozen_image_timeout_s: 0 } });
    try {
      rig.fly(2.2);
      const afterStartUp = between(rig.cmd, 300n * MS, 2200n * MS);
      expect(afterStartUp.length).toBeGreaterThan(40);
      expect(afterStartUp.filter(isHover)).toEqual([]);
      expect(rig.sim.faults.counters.framesFrozenPixels).toBeGreaterThanOrEqual(23);
    } finally {
      await rig.shutdown();
    }
  });

  it("no false hover without a fault: the simulator's camera noise (default scenario, noiseStd 2) changes every frame", async () => {
    const rig = await startFlight({ safetyParams: { frozen_image_timeout_s: 0.15 } });
    try {
      rig.fly(2.2);
      const afterStartUp = between(rig.cmd, 300n * MS, 2200n * MS);
      expect(afterStartUp.length).toBeGreaterThan(40);
      expect(afterStartUp.filter(isHover)).toEqual([]);
    } finally {
      await rig.shutdown();
    }
  });
});

/**
 * Can the embedded simulator render bit-identical frames in a legitimate situation? The sim node
 * alone in lock-step, no cmd_vel (so it hovers: cmd_timeout_s), 64x64, seed 1, digests of
 * consecutive camera frames (src/control/imageDigest.ts). With noiseStd 0 and no wind a hovering
 * drone's pose stops changing and so do its frames: the frozen-pixel check would fire on a
 * healthy simulated camera, which is why it can be switched off (frozen_image_timeout_s: 0) for
 * noise-free scenarios. With the shipped scenarios' noise (noiseStd 2) no two frames repeat.
 */
describe("the simulator's frames while hovering", () => {
  async function hoverDigests(noiseStd: number, seconds: number): Promise<string[]> {
    const graph = new EmbeddedGraph({ stderrLevel: "silent" });
    const sim = (await createSimNode({
      loadScenario: (name) => {
        const s = loadScenarioFile(name);
        s.camera.noiseStd = noiseStd;
        s.wind.meanSpeed_m_s = { min: 0, max: 0 };
        s.wind.gustStd_m_s = { min: 0, max: 0 };
        return s;
      },
    })(graph, { name: "sim", namespace: "/", remappings: {}, parameterOverrides: { mode: "lockstep", seed: 1, image_width: 64, image_height: 64, publish_ground_truth: false } })) as SimLaunchedNode;
    const digests: string[] = [];
    const out = new Uint32Array(2);
    graph.createNode("cam").createSubscription<Image>("sensor_msgs/msg/Image", "/camera/image_raw", { qos: QOS_SENSOR_DATA }, (m) => {
      imageDigest(m.data, m, out);
      digests.push(`${out[0]}:${out[1]}`);
    });
    for (let i = 0; i < Math.round(seconds / sim.controller.tick_s); i++) {
      sim.controller.tick();
      graph.spinUntilIdle();
    }
    await sim.stop();
    await graph.shutdown();
    return digests;
  }

  it("noiseStd 0, no wind: the last second of a 3 s hover is one repeated frame; noiseStd 2: all frames differ", async () => {
    const still = await hoverDigests(0, 3);
    expect(still.length).toBe(90);
    // The drone settles (first-order velocity loop, sim/Drone.ts); after that nothing moves.
    expect(new Set(still.slice(60)).size).toBe(1);
    const noisy = await hoverDigests(2, 3);
    expect(new Set(noisy).size).toBe(noisy.length);
  });
});
