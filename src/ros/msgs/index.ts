import { ros2jazzy } from "@foxglove/rosmsg-msgs-common";

import { loadMsgFiles } from "./loadMsgFiles";
import { MessageRegistry } from "./MessageRegistry";

export { MessageRegistry } from "./MessageRegistry";
export type { MessageRegistryOptions } from "./MessageRegistry";
export { MessageValidationError } from "./MessageValidator";
export { MessageDecodeError } from "./MessageDecodeError";
export { CdrLengthError } from "./boundSequenceLengths";
export type { MsgFile } from "./MsgFile";
export { loadMsgFiles, findMsgsDir } from "./loadMsgFiles";
export { toInternalTypeName, toRosTypeName } from "./typeNames";
export { ROS2MSG_DELIMITER } from "./ros2msgText";

let shared: MessageRegistry | undefined;

/**
 * The process-wide registry: ROS 2 Jazzy common interfaces from @foxglove/rosmsg-msgs-common plus
 * the .msg files under msgs/ (drone_harness_msgs, vision_msgs, px4_msgs). Built once, on first use.
 */
export function defaultRegistry(): MessageRegistry {
  shared ??= new MessageRegistry({ base: ros2jazzy, msgFiles: loadMsgFiles() });
  return shared;
}
