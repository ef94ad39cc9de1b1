import type { Parameter } from "../graph/types";

const pyBool = (b: boolean): string => (b ? "True" : "False");
const pyFloat = (x: number): string => (Number.isNaN(x) ? "nan" : !Number.isFinite(x) ? (x > 0 ? "inf" : "-inf") : Number.isInteger(x) ? `${x}.0` : String(x));
const pyStr = (s: string): string => `'${s.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;

/** The line `ros2 param get` prints (ros2cli ros2param/api/__init__.py, Humble wording). */
export function formatParameter(p: Parameter): string {
  switch (p.type) {
    case "bool":
      return `Boolean value is: ${pyBool(p.value as boolean)}`;
    case "integer":
      return `Integer value is: ${String(p.value)}`;
    case "double":
      return `Double value is: ${pyFloat(p.value as number)}`;
    case "string":
      return `String value is: ${String(p.value)}`;
    case "byte_array":
      return `Byte values are: [${Array.from(p.value as ArrayLike<number>, (b) => `b'\\x${b.toString(16).padStart(2, "0")}'`).join(", ")}]`;
    case "bool_array":
      return `Boolean values are: [${(p.value as boolean[]).map(pyBool).join(", ")}]`;
    case "integer_array":
      return `Integer values are: array('q', [${(p.value as number[]).join(", ")}])`;
    case "double_array":
      return `Double values are: array('d', [${(p.value as number[]).map(pyFloat).join(", ")}])`;
    case "string_array":
      return `String values are: [${(p.value as string[]).map(pyStr).join(", ")}]`;
  }
}
