import { expandTopicName, parseRemapRules, resolveTopicName, EmbeddedGraph } from "../../../src/ros/graph";

// Expected values: the "various_valid_topics" table of ros2/rcl rcl/test/rcl/test_expand_topic_name.cpp
// (which includes the examples of design.ros2.org/articles/topic_and_service_names.html), plus
// one nested namespace of ours.
describe("expandTopicName", () => {
  const table: Array<[string, string, string, string]> = [
    ["/chatter", "my_node", "/my_ns", "/chatter"],
    ["chatter", "my_node", "/my_ns", "/my_ns/chatter"],
    ["{node}/chatter", "my_node", "/my_ns", "/my_ns/my_node/chatter"],
    ["/{node}", "my_node", "/my_ns", "/my_node"],
    ["{node}", "my_node", "/my_ns", "/my_ns/my_node"],
    ["{ns}", "my_node", "/my_ns", "/my_ns"],
    ["{namespace}", "my_node", "/my_ns", "/my_ns"],
    ["{namespace}/{node}/chatter", "my_node", "/my_ns", "/my_ns/my_node/chatter"],
    ["ping", "my_node", "/", "/ping"],
    ["ping", "my_node", "/my_ns", "/my_ns/ping"],
    ["/ping", "my_node", "/", "/ping"],
    ["/ping", "my_node", "/my_ns", "/ping"],
    ["~", "my_node", "/", "/my_node"],
    ["~", "my_node", "/my_ns", "/my_ns/my_node"],
    ["~/ping", "my_node", "/", "/my_node/ping"],
    ["~/ping", "my_node", "/my_ns", "/my_ns/my_node/ping"],
    ["camera/image_raw", "cam", "/drone1/sensors", "/drone1/sensors/camera/image_raw"],
  ];
  it.each(table)("%s (node %s, ns %s) -> %s", (topic, node, ns, expected) => {
    expect(expandTopicName(topic, node, ns)).toBe(expected);
  });

  const invalid: Array<[string, string]> = [
    ["", "must not be empty"],
    ["foo/", 'must not end with "/"'],
    ["foo//bar", 'must not contain "//"'],
    ["9lives", 'token "9lives"'],
    ["foo/~", '"~" is allowed only at the start'],
    ["~foo", '"~" is allowed only at the start'],
    ["foo bar", 'token "foo bar"'],
    ["{bogus}", 'unknown substitution "{bogus}"'],
    // rcl expands this to "/foo//my_ns"; rmw_validate_full_topic_name then rejects it.
    ["/foo/{namespace}", 'must not contain "//"'],
  ];
  it.each(invalid)("rejects %j with a reason", (topic, reason) => {
    expect(() => expandTopicName(topic, "my_node", "/my_ns")).toThrow(reason);
  });
});

describe("remapping", () => {
  it("applies node-local rules before global ones, first match wins, both sides expanded", () => {
    const local = parseRemapRules({ chatter: "talk", "/abs": "~/private" });
    const global = parseRemapRules({ chatter: "global_chatter", "/x": "/y", "other:x": "/never" });
    expect(resolveTopicName("chatter", "n", "/ns", local, global)).toBe("/ns/talk");
    expect(resolveTopicName("/abs", "n", "/ns", local, global)).toBe("/ns/n/private");
    expect(resolveTopicName("/x", "n", "/ns", local, global)).toBe("/y");
    expect(resolveTopicName("unrelated", "n", "/ns", local, global)).toBe("/ns/unrelated");
    // A rule written relative matches the expanded name ("/ns/chatter").
    expect(resolveTopicName("/ns/chatter", "n", "/ns", local, global)).toBe("/ns/talk");
  });

  it("renames nodes with __node and __ns, and remaps topics for the graph", () => {
    const g = new EmbeddedGraph({ stderrLevel: "silent", globalRemappings: { "/cmd_vel": "/mavros/setpoint_velocity/cmd_vel" } });
    const n = g.createNode("controller", { namespace: "drone1", remappings: { __node: "ctrl", __ns: "/uav" } });
    expect(n.fullyQualifiedName).toBe("/uav/ctrl");
    expect(n.resolveTopicName("/cmd_vel")).toBe("/mavros/setpoint_velocity/cmd_vel");
    n.createPublisher("geometry_msgs/msg/TwistStamped", "/cmd_vel");
    expect(g.topicNamesAndTypes().map((t) => t.name)).toContain("/mavros/setpoint_velocity/cmd_vel");
    expect(g.nodeNames()).toEqual(["/uav/ctrl"]);
  });

  it("rejects invalid node names and namespaces", () => {
    const g = new EmbeddedGraph({ stderrLevel: "silent" });
    expect(() => g.createNode("bad-name")).toThrow('invalid node name "bad-name"');
    expect(() => g.createNode("n", { namespace: "/a/" })).toThrow('invalid namespace "/a/"');
    g.createNode("dup");
    expect(() => g.createNode("dup")).toThrow("a node named /dup already exists");
  });
});
