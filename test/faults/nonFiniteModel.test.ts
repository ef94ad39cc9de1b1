/**
 * Issue 16 item 7, in flight: a detector whose outputs turn NaN (what scaled weights give) must
 * not steer. Perception drops the frame and counts it (drops/camera/image_raw:non_finite_output on
 * /diagnostics); the controller gets no input and hovers after its input timeout; cruise resumes
 * when the outputs are finite again. Lock-step flight of test/faults/flight.ts.
 */
import type { StudentOutputs } from "../../nodes/common/models/models";
import type { Image } from "../../nodes/common/sensors/sensorTypes";
import type { FrameState } from "../../nodes/common/sensors/SensorState";
import { QOS_DEFAULT } from "../../src/ros/graph/types";
import { FakeDetector } from "../nodes/fixtures";
import { SEC, between, isHover, startFlight } from "./flight";

/** The fake student, with every output NaN while `broken` is set. */
class NaNWhenBroken extends FakeDetector {
  broken = false;
  override infer(img: Image, state: FrameState): StudentOutputs {
    const out = super.infer(img, state);
    if (!this.broken) return out;
    return { ...out, cellProbs: new Float32Array(out.cellProbs.length).fill(NaN), actionLogits: new Float32Array(out.actionLogits.length).fill(NaN) };
  }
}

type Diag = { status: Array<{ name: string; values: Array<{ key: string; value: string }> }> };

describe("non-finite model outputs in flight", () => {
  it("drop the frame, count it on /diagnostics, hover within 200 ms; cruise again once finite", async () => {
    const detector = new NaNWhenBroken();
    // input_timeout_s 0.15 as in test/faults/nodeCrash.test.ts: the controller hovers 0.15 s after its last input.
    const rig = await startFlight({ detector: () => detector, controllerParams: { input_timeout_s: 0.15 } });
    const drops: number[] = [];
    rig.graph.createNode("diag_rec").createSubscription<Diag>("diagnostic_msgs/msg/DiagnosticArray", "/diagnostics", { qos: { ...QOS_DEFAULT, depth: 100 } }, (m) => {
      for (const st of m.status) {
        const v = st.values.find((x) => x.key === "drops/camera/image_raw:non_finite_output");
        if (st.name.startsWith("perception") && v !== undefined) drops.push(Number(v.value));
      }
    });
    rig.fly(0.6);
    const start = rig.sim.controller.timeNs();
    detector.broken = true;
    rig.fly(0.8);
    const end = rig.sim.controller.timeNs();
    detector.broken = false;
    rig.fly(1.0);
    const held = between(rig.cmd, start + SEC / 5n, end);
    expect(held.length).toBeGreaterThan(5);
    expect(held.every(isHover)).toBe(true);
    expect(between(rig.cmd, start - SEC / 2n, start).some((c) => c.vx > 0)).toBe(true);
    expect(between(rig.cmd, end + SEC / 2n, rig.sim.controller.timeNs()).every((c) => c.vx > 0)).toBe(true);
    // About 24 frames at 30 Hz in 0.8 s were dropped and counted.
    expect(Math.max(...drops)).toBeGreaterThanOrEqual(20);
    expect(rig.graph.callbackErrors).toBe(0);
    await rig.shutdown();
  });
});
