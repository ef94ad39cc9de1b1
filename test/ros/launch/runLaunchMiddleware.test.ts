import { runLaunch } from "../../../src/cli/runLaunch";
import { UsageError } from "../../../src/cli/CliCommand";
import type { NodeRegistry } from "../../../src/ros/launch/NodeFactory";

function capture(): { io: { out: (t: string) => void; err: (t: string) => void }; err: string[] } {
  const err: string[] = [];
  return { io: { out: () => undefined, err: (t) => err.push(t) }, err };
}

const registry: NodeRegistry = {};

describe("drone-harness launch --middleware", () => {
  it("ros2 without rclnodejs fails before starting anything, with the set-up hint", async () => {
    const c = capture();
    const code = await runLaunch(["launch/drone.launch.xml", "--middleware", "ros2"], c.io, { registry, until: async () => undefined });
    expect(code).toBe(1);
    expect(c.err.join("")).toContain("rclnodejs could not be loaded: source your ROS 2 setup.bash, then npm rebuild rclnodejs");
  });
  it("rejects an unknown middleware by name", async () => {
    const c = capture();
    await expect(runLaunch(["launch/drone.launch.xml", "--middleware=zenoh"], c.io, { registry })).rejects.toThrow(UsageError);
    await expect(runLaunch(["launch/drone.launch.xml", "--middleware=zenoh"], c.io, { registry })).rejects.toThrow(
      "--middleware=zenoh: expected one of embedded, ros2, dds",
    );
  });
});
