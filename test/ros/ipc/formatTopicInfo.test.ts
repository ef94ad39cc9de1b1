import { QOS_SENSOR_DATA, QOS_TRANSIENT_LOCAL } from "../../../src/ros/graph";
import { formatTopicInfo } from "../../../src/ros/ipc/formatTopicInfo";

describe("formatTopicInfo", () => {
  const info = {
    name: "/drone1/image_raw",
    type: "sensor_msgs/msg/Image",
    publishers: [{ node: "/drone1/camera", qos: QOS_SENSOR_DATA }],
    subscriptions: [
      { node: "/perception", qos: { ...QOS_SENSOR_DATA, history: "keep_all" as const } },
      { node: "/_embedded_raw", qos: QOS_TRANSIENT_LOCAL },
    ],
  };

  it("counts endpoints without -v", () => {
    expect(formatTopicInfo(info)).toBe("Type: sensor_msgs/msg/Image\nPublisher count: 1\nSubscription count: 2\n");
  });

  it("prints each endpoint's node, namespace and QoS with -v (KEEP_ALL without a depth, as rclpy)", () => {
    const text = formatTopicInfo(info, { verbose: true });
    expect(text).toContain("Node name: camera\nNode namespace: /drone1\nTopic type: sensor_msgs/msg/Image\nEndpoint type: PUBLISHER\nQoS profile:\n  Reliability: BEST_EFFORT\n  History (Depth): KEEP_LAST (5)\n");
    expect(text).toContain("Node name: perception\nNode namespace: /\nTopic type: sensor_msgs/msg/Image\nEndpoint type: SUBSCRIPTION\nQoS profile:\n  Reliability: BEST_EFFORT\n  History (Depth): KEEP_ALL\n  Durability: VOLATILE\n");
    expect(text).toContain("Node name: _embedded_raw\nNode namespace: /\n");
    expect(text).toContain("  Durability: TRANSIENT_LOCAL\n");
    expect(text.indexOf("Subscription count: 2")).toBeGreaterThan(text.indexOf("Endpoint type: PUBLISHER"));
    expect(text.match(/Endpoint type: SUBSCRIPTION/g)).toHaveLength(2);
  });

  it("says unknown for a topic without a known type", () => {
    expect(formatTopicInfo({ name: "/x", type: undefined, publishers: [], subscriptions: [{ node: "/a", qos: QOS_SENSOR_DATA }] })).toBe(
      "Type: unknown\nPublisher count: 0\nSubscription count: 1\n",
    );
  });
});
