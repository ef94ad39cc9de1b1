import { controllerNode } from "../../nodes/controller";
import { toStudentOutputMsg, type StudentOutputMsg } from "../../nodes/common/models/studentOutputMsg";
import type { TwistStamped } from "../../nodes/common/sensors/sensorTypes";
import { ACTIONS, NUM_ACTIONS } from "../../src/harness/actions";
import { QOS_DEFAULT } from "../../src/ros/graph/types";
import { nsToStamp } from "../../src/util/time";
import { MS } from "./fixtures";
import { SimRig } from "./SimRig";

function policy(atNs: bigint, action: (typeof ACTIONS)[number], bad = false): StudentOutputMsg {
  const logits = new Float32Array(NUM_ACTIONS);
  logits[ACTIONS.indexOf(action)] = 3;
  if (bad) logits[0] = Number.NaN;
  return toStudentOutputMsg(
    { stamp: nsToStamp(atNs), frame_id: "camera_optical" },
    { actionLogits: logits, cellProbs: new Float32Array(2 * 2 * 4), gridRows: 2, gridCols: 2, state: [], pooledSize: 0, pooledInput: [] },
    { width: 256, height: 256 },
    true,
  );
}

async function setup(params: Record<string, number | boolean | string> = {}) {
  const r = new SimRig();
  // These tests drive the policy-head path; test/nodes/controllerPlanner.test.ts the planner (the default).
  const launched = await r.add(controllerNode, "controller", { mode: "policy", ...params });
  const pub = r.graph.createNode("fake_harness").createPublisher<StudentOutputMsg>("drone_harness_msgs/msg/StudentOutput", "/harness/policy");
  const cmd = r.record<TwistStamped>("/cmd_vel_raw", "geometry_msgs/msg/TwistStamped");
  return { r, launched, pub, cmd };
}

describe("controller node", () => {
  it("publishes the policy's command on every policy message, stamped with its header, with the speed-limit parameters", async () => {
    const { r, pub, cmd } = await setup({ max_horizontal_speed_m_s: 2.5, max_accel_m_s2: 0 });
    r.runTo(100n * MS);
    pub.publish(policy(100n * MS, "cruise"));
    r.graph.spinUntilIdle();
    const c = cmd.at(-1)!.msg;
    expect(c.header).toEqual({ stamp: { sec: 0, nanosec: 100_000_000 }, frame_id: "base_link" });
    expect(c.twist.linear.x).toBeCloseTo(2.5, 6); // cruise 4 m/s clamped to 2.5
    // Camera stamp -> command age on /diagnostics: the policy was handled at its stamp's sim time.
    const diag = r.record<{ status: Array<{ values: Array<{ key: string; value: string }> }> }>("/diagnostics", "diagnostic_msgs/msg/DiagnosticArray");
    r.runTo(1100n * MS);
    expect(diag.at(-1)!.msg.status[0]!.values).toContainEqual({ key: "camera_to_command_p50_ms", value: "0.00" });
    expect(r.graph.topicInfo("/cmd_vel_raw").publishers[0]!.qos).toEqual(QOS_DEFAULT);
    expect(r.graph.topicInfo("/harness/policy").subscriptions.find((s) => s.node === "/controller")!.qos).toEqual(QOS_DEFAULT);
    await r.shutdown();
  });

  it("declares its parameters with defaults and ranges, and rejects an out-of-range override at configure", async () => {
    const { r, launched } = await setup();
    expect(launched.node.getParameter("rate_hz").value).toBe(20);
    expect(launched.node.getParameter("cruise_speed_m_s").value).toBe(4);
    await r.shutdown();
    const r2 = new SimRig();
    await expect(r2.add(controllerNode, "controller", { rate_hz: 1 })).rejects.toThrow(/rate_hz/);
    await r2.shutdown();
  });

  it("hovers on its timer when the policy goes stale, and on NaN logits (counted)", async () => {
    const { r, pub, cmd } = await setup({ max_accel_m_s2: 0, input_timeout_s: 0.2 });
    r.runTo(100n * MS);
    pub.publish(policy(100n * MS, "cruise"));
    r.runTo(250n * MS);
    expect(cmd.at(-1)!.msg.twist.linear.x).toBeCloseTo(4, 6);
    r.runTo(400n * MS);
    expect(cmd.at(-1)!.msg.twist.linear.x).toBe(0);
    // Timer commands keep flowing at rate_hz (20 Hz): no gap above one period (+ the 10 ms rig step).
    const times = cmd.filter((c) => c.atNs >= 100n * MS && c.atNs <= 400n * MS).map((c) => c.atNs);
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeLessThanOrEqual(60n * MS);
    expect(times.length).toBeGreaterThanOrEqual(6);
    pub.publish(policy(410n * MS, "cruise", true));
    r.graph.spinUntilIdle();
    expect(cmd.at(-1)!.msg.twist.linear.x).toBe(0);
    await r.shutdown();
  });
});
