/**
 * Regenerates src/ros/msgs/generated.ts from the message registry (ros2jazzy common interfaces +
 * msgs/**.msg). Run from the repository root: `npm run gen:msgs`. Deterministic: running it twice
 * gives identical bytes, and test/ros/msgs/generated.test.ts fails when the committed file is stale.
 */
import * as fs from "node:fs";
import * as path from "node:path";

import { ros2jazzy } from "@foxglove/rosmsg-msgs-common";

import { generateMessageTypes } from "../src/ros/msgs/generateTypes";
import { loadMsgFiles } from "../src/ros/msgs/loadMsgFiles";
import { MessageRegistry } from "../src/ros/msgs/MessageRegistry";

function main(): void {
  const root = path.resolve(process.argv[2] ?? process.cwd());
  const msgsDir = path.join(root, "msgs");
  if (!fs.existsSync(path.join(msgsDir, "msg"))) {
    throw new Error(`${msgsDir}/msg not found: run from the repository root or pass it as the first argument`);
  }
  const registry = new MessageRegistry({ base: ros2jazzy, msgFiles: loadMsgFiles(msgsDir) });
  const target = path.join(root, "src", "ros", "msgs", "generated.ts");
  const text = generateMessageTypes(registry);
  const before = fs.existsSync(target) ? fs.readFileSync(target, "utf8") : "";
  if (before === text) {
    process.stdout.write(`${path.relative(root, target)} is up to date (${registry.typeNames().length} types)\n`);
    return;
  }
  fs.writeFileSync(target, text);
  process.stdout.write(`wrote ${path.relative(root, target)} (${registry.typeNames().length} types)\n`);
}

main();
