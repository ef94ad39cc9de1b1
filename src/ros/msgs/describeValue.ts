/** A short description of a JavaScript value for error messages ("string", "Float32Array(12)", "null"). */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return `array(${value.length})`;
  if (ArrayBuffer.isView(value)) {
    const length = (value as unknown as { length?: number }).length;
    return `${value.constructor.name}(${length ?? value.byteLength})`;
  }
  if (typeof value === "number") return `number ${value}`;
  if (typeof value === "bigint") return `bigint ${value.toString()}`;
  if (typeof value === "string") return "string";
  return typeof value;
}
