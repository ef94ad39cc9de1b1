import * as fs from "node:fs";
import * as path from "node:path";

import { ros2jazzy } from "@foxglove/rosmsg-msgs-common";

import { defaultRegistry, loadMsgFiles, MessageRegistry } from "../../../src/ros/msgs";
import { generateMessageTypes, interfaceName } from "../../../src/ros/msgs/generateTypes";
import type { Msg } from "../../../src/ros/msgs/generated";
import { rcl_interfaces__msg__Log__constants } from "../../../src/ros/msgs/generated";

describe("generated.ts", () => {
  it("is up to date with msgs/ (run `npm run gen:msgs` after editing a .msg file)", () => {
    const committed = fs.readFileSync(path.join(__dirname, "../../../src/ros/msgs/generated.ts"), "utf8");
    expect(generateMessageTypes(defaultRegistry())).toBe(committed);
  });

  it("is deterministic and covers every type", () => {
    const a = generateMessageTypes(new MessageRegistry({ base: ros2jazzy, msgFiles: loadMsgFiles() }));
    const b = generateMessageTypes(new MessageRegistry({ base: ros2jazzy, msgFiles: [...loadMsgFiles()].reverse() }));
    expect(a).toBe(b);
    for (const t of defaultRegistry().typeNames()) {
      expect(a).toContain(`  "${t}": ${interfaceName(t)};`);
    }
  });

  it("types default messages and constants", () => {
    const img: Msg<"sensor_msgs/msg/Image"> = defaultRegistry().defaultMessage<Msg<"sensor_msgs/msg/Image">>("sensor_msgs/msg/Image");
    expect(img.data).toBeInstanceOf(Uint8Array);
    const t: Msg<"px4_msgs/msg/TrajectorySetpoint"> = defaultRegistry().defaultMessage("px4_msgs/msg/TrajectorySetpoint");
    expect(t.timestamp).toBe(0n);
    expect(t.position).toEqual(new Float32Array(3));
    expect(rcl_interfaces__msg__Log__constants.ERROR).toBe(40);
  });
});
