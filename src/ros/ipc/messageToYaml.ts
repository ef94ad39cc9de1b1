import type { MessageRegistry } from "../msgs/MessageRegistry";

type MessageDefinition = ReturnType<MessageRegistry["definition"]>;
type MessageDefinitionField = MessageDefinition["definitions"][number];

/** Looks up a message definition by type name ("pkg/msg/Name" or "pkg/Name"). */
export type DefinitionLookup = (typeName: string) => MessageDefinition;

export type YamlOptions = {
  /** Strings and arrays longer than this are cut, with "..." appended (ros2 topic echo's
   * --truncate-length, default 128: ros2cli ros2topic/verb/echo.py). */
  truncateLength?: number;
};

const FLOAT_TYPES = new Set(["float32", "float64"]);
/** @foxglove/rosmsg parses builtin_interfaces/Time and Duration as the primitives "time" and
 * "duration" with {sec, nanosec} values; they print as the nested messages they are. */
const TIME_TYPES = new Set(["time", "duration"]);
const YAML_WORDS = /^(?:true|false|yes|no|on|off|null|y|n|~)$/i;
/** Strings PyYAML would have to quote: they start with an indicator or space, end with a space,
 * contain ": ", " #" or control characters, or would read back as a number. */
const NEEDS_QUOTES = /^[\s\-?:,[\]{}#&*!|>'"%@`]|\s$|: | #|[\n\r\t\v\f]|^[-+]?(?:\d|\.\d|\.inf|\.nan)/i;

function formatFloat(x: number): string {
  if (Number.isNaN(x)) return ".nan";
  if (x === Infinity) return ".inf";
  if (x === -Infinity) return "-.inf";
  // Python repr of an integral float keeps ".0" (yaml.dump of 1.0 is "1.0").
  if (Number.isInteger(x) && Math.abs(x) < 1e16) return `${x}.0`;
  return String(x);
}

function formatString(s: string, truncate: number): string {
  const cut = s.length > truncate ? `${s.slice(0, truncate)}...` : s;
  if (cut !== "" && !NEEDS_QUOTES.test(cut) && !YAML_WORDS.test(cut)) return cut;
  return `'${cut.replace(/'/g, "''").replace(/\n/g, "\\n")}'`;
}

function formatScalar(type: string, value: unknown, truncate: number): string {
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") return FLOAT_TYPES.has(type) ? formatFloat(value) : String(value);
  if (typeof value === "string") return formatString(value, truncate);
  return formatString(String(value), truncate);
}

/**
 * Renders a decoded message as `ros2 topic echo` does (rosidl_runtime_py message_to_yaml, then
 * yaml.dump in block style): nested messages indented by two spaces, arrays as "- item" lines at
 * the key's indentation, empty arrays as [], long arrays and strings truncated with '...'.
 */
export function messageToYaml(lookup: DefinitionLookup, typeName: string, message: unknown, options: YamlOptions = {}): string {
  const truncate = options.truncateLength ?? 128;
  const lines: string[] = [];

  const fieldsOf = (type: string): MessageDefinitionField[] => lookup(type).definitions.filter((f) => f.isConstant !== true);

  const emitMessage = (type: string, msg: unknown, indent: string, firstPrefix: string | undefined): void => {
    const record = (msg ?? {}) as Record<string, unknown>;
    const fields = fieldsOf(type);
    if (fields.length === 0) {
      lines.push(`${firstPrefix ?? indent}{}`);
      return;
    }
    fields.forEach((field, i) => {
      const prefix = i === 0 && firstPrefix !== undefined ? firstPrefix : indent;
      emitField(field, record[field.name], indent, prefix);
    });
  };

  const emitField = (field: MessageDefinitionField, value: unknown, indent: string, prefix: string): void => {
    const key = `${prefix}${field.name}:`;
    if (field.isArray === true) {
      const items = Array.isArray(value) ? (value as unknown[]) : ArrayBuffer.isView(value) ? Array.from(value as unknown as ArrayLike<number | bigint>) : [];
      if (items.length === 0) {
        lines.push(`${key} []`);
        return;
      }
      lines.push(key);
      const shown = items.length > truncate ? items.slice(0, truncate) : items;
      for (const item of shown) {
        if (field.isComplex === true) emitMessage(field.type, item, `${indent}  `, `${indent}- `);
        else lines.push(`${indent}- ${formatScalar(field.type, item, truncate)}`);
      }
      if (items.length > truncate) lines.push(`${indent}- '...'`);
      return;
    }
    if (TIME_TYPES.has(field.type)) {
      const t = (value ?? {}) as { sec?: number | bigint; nanosec?: number | bigint };
      lines.push(key, `${indent}  sec: ${(t.sec ?? 0).toString()}`, `${indent}  nanosec: ${(t.nanosec ?? 0).toString()}`);
      return;
    }
    if (field.isComplex === true) {
      if (fieldsOf(field.type).length === 0) {
        lines.push(`${key} {}`);
        return;
      }
      lines.push(key);
      emitMessage(field.type, value, `${indent}  `, undefined);
      return;
    }
    lines.push(`${key} ${formatScalar(field.type, value, truncate)}`);
  };

  emitMessage(typeName, message, "", undefined);
  return `${lines.join("\n")}\n`;
}
