import { controllerNode } from "../../nodes/controller";
import { safetyNode } from "../../nodes/safety";
import { toStudentOutputMsg } from "../../nodes/common/models/studentOutputMsg";
import type { TwistStamped } from "../../nodes/common/sensors/sensorTypes";
import { ACTIONS, NUM_ACTIONS } from "../../src/harness/actions";
import { nsToStamp } from "../../src/util/time";
import { activateIfLifecycle } from "../../src/ros/launch/NodeFactory";
import { RclnodejsGraph } from "../../src/ros/rclnodejs/RclnodejsGraph";
import { makeFakeRcl } from "../ros/rclnodejs/fakeRclnodejs";
import { fix, image, imu } from "./fixtures";

/**
 * The same node files on the rclnodejs adapter (over the in-memory rclnodejs of the adapter's
 * tests): controller and safety declare their parameters, go through their lifecycle, and a
 * policy message becomes a gated /cmd_vel.
 */
describe("nodes on the rclnodejs adapter", () => {
  it("controller -> safety -> cmd_vel", async () => {
    const rcl = makeFakeRcl();
    const graph = await RclnodejsGraph.create({ rclnodejs: rcl });
    const opts = (name: string) => ({ name, namespace: "/", parameterOverrides: { max_accel_m_s2: 0, mode: "policy" }, remappings: {} });
    const controller = await controllerNode(graph, opts("controller"));
    const safety = await safetyNode(graph, opts("safety"));
    await activateIfLifecycle(controller);
    await activateIfLifecycle(safety);
    expect(controller.node.getParameter("rate_hz").value).toBe(20);
    const got: TwistStamped[] = [];
    const io = graph.createNode("io");
    io.createSubscription<TwistStamped>("geometry_msgs/msg/TwistStamped", "/cmd_vel", {}, (m) => got.push(m));
    const t = io.getClock().nowNs(); // the in-memory rcl's clock (stamps must not be ahead of it)
    io.createPublisher("sensor_msgs/msg/Image", "/camera/image_raw").publish(image(t));
    io.createPublisher("sensor_msgs/msg/Imu", "/imu/data").publish(imu(t));
    io.createPublisher("sensor_msgs/msg/NavSatFix", "/gps/fix").publish(fix(t));
    const logits = new Float32Array(NUM_ACTIONS);
    logits[ACTIONS.indexOf("climb")] = 2;
    io.createPublisher("drone_harness_msgs/msg/StudentOutput", "/harness/policy").publish(
      toStudentOutputMsg({ stamp: nsToStamp(t), frame_id: "camera_optical" }, { actionLogits: logits, cellProbs: new Float32Array(4), gridRows: 1, gridCols: 1, state: [], pooledSize: 0, pooledInput: [] }, { width: 256, height: 256 }, true),
    );
    expect(got.length).toBeGreaterThan(0);
    expect(got.at(-1)!.twist.linear.z).toBeCloseTo(1.5, 6);
    expect(got.at(-1)!.header.frame_id).toBe("base_link");
    await controller.stop();
    await safety.stop();
    await graph.shutdown();
  });
});
