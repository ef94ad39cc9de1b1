/**
 * Builds the ros2msg schema text rosbag2 stores in MCAP Schema records: the root .msg text, then
 * for every dependency (depth-first, each once) a line of 80 "=", "MSG: pkg/Name" and its text.
 * Format checked against the schemas inside rosbag2's own talker.mcap test bag
 * (ros2/rosbag2 rosbag2_py/test/resources/mcap/talker) and rosbag2_cpp's
 * local_message_definition_source.cpp; the MCAP ros2 profile requires it
 * (foxglove/mcap docs/specification/profiles/ros2.md).
 *
 * The text is generated from parsed definitions (@foxglove/message-definition records), so it is
 * equivalent to the .msg files but without their comments.
 */
import type { MessageDefinition, MessageDefinitionField } from "@foxglove/message-definition";

export const ROS2MSG_SEPARATOR = "=".repeat(80);

/** Looks up a definition by "pkg/Name" (no "/msg/"); undefined when unknown. */
export type DefinitionLookup = (name: string) => MessageDefinition | undefined;

/** "pkg/msg/Name" -> "pkg/Name" (the form @foxglove/rosmsg uses for complex types). */
export function shortTypeName(type: string): string {
  const parts = type.split("/");
  return parts.length === 3 && parts[1] === "msg" ? `${parts[0] ?? ""}/${parts[2] ?? ""}` : type;
}

/** The builtin types @foxglove/rosmsg maps to "time"/"duration" when parsing ROS 2. */
const BUILTIN_COMPLEX: Record<string, string> = {
  time: "builtin_interfaces/Time",
  duration: "builtin_interfaces/Duration",
};
const BUILTIN_DEFINITIONS: Record<string, MessageDefinition> = {
  "builtin_interfaces/Time": {
    name: "builtin_interfaces/Time",
    definitions: [
      { name: "sec", type: "int32" },
      { name: "nanosec", type: "uint32" },
    ],
  },
  "builtin_interfaces/Duration": {
    name: "builtin_interfaces/Duration",
    definitions: [
      { name: "sec", type: "int32" },
      { name: "nanosec", type: "uint32" },
    ],
  },
};

function fieldTypeText(field: MessageDefinitionField): string {
  let type = BUILTIN_COMPLEX[field.type] ?? field.type;
  if (field.upperBound !== undefined && field.type.endsWith("string")) type += `<=${field.upperBound}`;
  if (field.isArray === true) {
    if (field.arrayLength !== undefined) type += `[${field.arrayLength}]`;
    else if (field.arrayUpperBound !== undefined) type += `[<=${field.arrayUpperBound}]`;
    else type += "[]";
  }
  return type;
}

function definitionText(def: MessageDefinition): string {
  const lines: string[] = [];
  for (const field of def.definitions) {
    if (field.isConstant === true) {
      const value = field.valueText ?? String(field.value);
      lines.push(`${field.type} ${field.name}=${value}`);
    } else {
      lines.push(`${fieldTypeText(field)} ${field.name}`);
    }
  }
  return lines.join("\n") + "\n";
}

function dependencyOf(field: MessageDefinitionField): string | undefined {
  if (field.isConstant === true) return undefined;
  const builtin = BUILTIN_COMPLEX[field.type];
  if (builtin !== undefined) return builtin;
  return field.isComplex === true ? field.type : undefined;
}

/**
 * Schema text for `type` ("pkg/msg/Name" or "pkg/Name"). Throws naming the first type the lookup
 * does not know.
 */
export function ros2MsgSchemaText(type: string, lookup: DefinitionLookup): string {
  const rootName = shortTypeName(type);
  const find = (name: string): MessageDefinition => {
    const def = lookup(name) ?? BUILTIN_DEFINITIONS[name];
    if (def === undefined) throw new Error(`no message definition for "${name}" (needed by ${type})`);
    return def;
  };
  const root = find(rootName);
  const order: string[] = [];
  const seen = new Set<string>([rootName]);
  const visit = (def: MessageDefinition): void => {
    for (const field of def.definitions) {
      const dep = dependencyOf(field);
      if (dep === undefined || seen.has(dep)) continue;
      seen.add(dep);
      order.push(dep);
      visit(find(dep));
    }
  };
  visit(root);
  let text = definitionText(root);
  for (const dep of order) text += `${ROS2MSG_SEPARATOR}\nMSG: ${dep}\n${definitionText(find(dep))}`;
  return text;
}
