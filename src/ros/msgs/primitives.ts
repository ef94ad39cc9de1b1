/**
 * ROS 2 primitive field types as @foxglove/rosmsg reports them (ros2 mode maps `byte` and `char`
 * to uint8, and builtin_interfaces/Time and Duration to `time` and `duration`), and the
 * JavaScript values that @foxglove/rosmsg2-serialization reads and writes for each.
 */

export type NumericPrimitive = "int8" | "uint8" | "int16" | "uint16" | "int32" | "uint32" | "float32" | "float64";
export type BigIntPrimitive = "int64" | "uint64";

/** Integer ranges for the checks in validateMessage (rosidl: ROS 2 interface definition, field types). */
export const INTEGER_RANGES: ReadonlyMap<string, readonly [number, number]> = new Map<string, readonly [number, number]>([
  ["int8", [-128, 127]],
  ["uint8", [0, 255]],
  ["int16", [-32768, 32767]],
  ["uint16", [0, 65535]],
  ["int32", [-2147483648, 2147483647]],
  ["uint32", [0, 4294967295]],
]);

export const BIGINT_RANGES: ReadonlyMap<string, readonly [bigint, bigint]> = new Map<string, readonly [bigint, bigint]>([
  ["int64", [-(2n ** 63n), 2n ** 63n - 1n]],
  ["uint64", [0n, 2n ** 64n - 1n]],
]);

export type TypedArrayConstructor =
  | Int8ArrayConstructor
  | Uint8ArrayConstructor
  | Int16ArrayConstructor
  | Uint16ArrayConstructor
  | Int32ArrayConstructor
  | Uint32ArrayConstructor
  | Float32ArrayConstructor
  | Float64ArrayConstructor
  | BigInt64ArrayConstructor
  | BigUint64ArrayConstructor;

/**
 * The typed array that MessageReader returns for a primitive array field, and that MessageWriter
 * accepts without copying (rosmsg2-serialization MessageWriter: `value instanceof Float32Array`...).
 * A typed array of another kind is silently written as zeros by MessageWriter, so validation
 * insists on exactly this constructor.
 */
export const TYPED_ARRAYS: ReadonlyMap<string, TypedArrayConstructor> = new Map<string, TypedArrayConstructor>([
  ["int8", Int8Array],
  ["uint8", Uint8Array],
  ["int16", Int16Array],
  ["uint16", Uint16Array],
  ["int32", Int32Array],
  ["uint32", Uint32Array],
  ["float32", Float32Array],
  ["float64", Float64Array],
  ["int64", BigInt64Array],
  ["uint64", BigUint64Array],
]);

/** The builtin_interfaces type that rosmsg's `time` / `duration` stand for in a ROS 2 .msg file. */
export const TIME_TYPES: ReadonlyMap<string, string> = new Map([
  ["time", "builtin_interfaces/Time"],
  ["duration", "builtin_interfaces/Duration"],
]);

export function isPrimitive(type: string): boolean {
  return (
    type === "bool" ||
    type === "string" ||
    type === "wstring" ||
    type === "time" ||
    type === "duration" ||
    INTEGER_RANGES.has(type) ||
    BIGINT_RANGES.has(type) ||
    type === "float32" ||
    type === "float64"
  );
}
