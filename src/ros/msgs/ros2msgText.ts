import type { MessageDefinition, MessageDefinitionField } from "@foxglove/message-definition";

import { TIME_TYPES } from "./primitives";

/**
 * Writes a parsed definition back as ROS 2 .msg text, for types whose original file text is not
 * available (the @foxglove/rosmsg-msgs-common set has definitions only, without comments).
 * `time`/`duration` become builtin_interfaces/Time and Duration again; `byte` and `char` were
 * parsed to uint8 and stay uint8 (same wire format).
 */
export function stringifyDefinition(definition: MessageDefinition): string {
  const lines: string[] = [];
  for (const field of definition.definitions) {
    if (field.isConstant === true) {
      lines.push(`${field.type} ${field.name}=${field.valueText ?? String(field.value)}`);
    } else {
      lines.push(`${fieldTypeText(field)} ${field.name}${defaultText(field)}`);
    }
  }
  return lines.join("\n") + "\n";
}

function fieldTypeText(field: MessageDefinitionField): string {
  let base = TIME_TYPES.get(field.type) ?? field.type;
  if (field.upperBound !== undefined) base += `<=${field.upperBound}`;
  if (field.isArray !== true) return base;
  if (field.arrayLength !== undefined) return `${base}[${field.arrayLength}]`;
  if (field.arrayUpperBound !== undefined) return `${base}[<=${field.arrayUpperBound}]`;
  return `${base}[]`;
}

function defaultText(field: MessageDefinitionField): string {
  const d = field.defaultValue;
  if (d === undefined) return "";
  if (Array.isArray(d)) return ` [${(d as unknown[]).map((v) => formatScalar(v, field.type)).join(", ")}]`;
  return ` ${formatScalar(d, field.type)}`;
}

function formatScalar(v: unknown, type: string): string {
  if (type === "string") return JSON.stringify(v);
  if (typeof v === "bigint" || typeof v === "number" || typeof v === "boolean") return String(v);
  return JSON.stringify(v);
}

/** 80 '=' characters: the ros2msg dependency delimiter (ros2/rosbag2 docs/message_definition_encoding.md). */
export const ROS2MSG_DELIMITER = "=".repeat(80);

/**
 * Concatenates a type's .msg text with its dependencies in the `ros2msg` schema encoding that
 * rosbag2 stores in MCAP bags (ros2/rosbag2 docs/message_definition_encoding.md): the top-level
 * text first, then for each dependency a line of 80 '=', a line "MSG: <name>" and its text.
 * Exactly one newline separates a text from the next delimiter, as in the talker fixture bag.
 */
export function joinRos2MsgText(rootText: string, dependencies: ReadonlyArray<{ name: string; text: string }>): string {
  let out = rootText;
  for (const dep of dependencies) {
    if (!out.endsWith("\n")) out += "\n";
    out += `${ROS2MSG_DELIMITER}\nMSG: ${dep.name}\n${dep.text}`;
  }
  return out;
}
