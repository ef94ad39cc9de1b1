import { createGraph, EmbeddedGraph } from "../../../src/ros/graph";
import { loadRclnodejs, RCLNODEJS_UNAVAILABLE } from "../../../src/ros/rclnodejs/loadRclnodejs";

describe("choosing the ros2 middleware without rclnodejs", () => {
  it("fails with the documented message and the underlying cause", async () => {
    // rclnodejs is an optionalDependency whose native build needs ROS 2's rcl: absent here.
    await expect(createGraph({ middleware: "ros2" })).rejects.toThrow(
      /^rclnodejs could not be loaded: source your ROS 2 setup\.bash, then npm rebuild rclnodejs \(cause: Cannot find module 'rclnodejs'/,
    );
  });

  it("keeps the cause of a failing native binding", () => {
    const failing = (): never => {
      throw new Error("Could not locate the bindings file. Tried:\n → build/Release/rclnodejs.node");
    };
    expect(() => loadRclnodejs(failing)).toThrow(`${RCLNODEJS_UNAVAILABLE} (cause: Could not locate the bindings file. Tried:)`);
  });

  it("defaults to the embedded graph", async () => {
    const g = await createGraph({ stderrLevel: "silent" });
    expect(g).toBeInstanceOf(EmbeddedGraph);
    await g.shutdown();
  });
});
