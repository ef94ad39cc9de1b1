import { createPerceptionNode } from "../../nodes/perception";
import type { Detector, StudentOutputs } from "../../nodes/common/models";
import type { Image } from "../../nodes/common/sensorTypes";
import type { FrameState } from "../../nodes/common/SensorState";
import type { Detection2DArray } from "../../src/control/visionTypes";
import { FakeDetector, MS, image } from "./fixtures";
import { SimRig } from "./SimRig";

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
