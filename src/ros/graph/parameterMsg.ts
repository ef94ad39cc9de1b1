import type { Parameter, ParameterType } from "./types";

/** rcl_interfaces/msg/ParameterType constants (PARAMETER_BOOL=1 ... PARAMETER_STRING_ARRAY=9). */
export const PARAMETER_TYPE_CODE: Readonly<Record<ParameterType, number>> = {
  bool: 1,
  integer: 2,
  double: 3,
  string: 4,
  byte_array: 5,
  bool_array: 6,
  integer_array: 7,
  double_array: 8,
  string_array: 9,
};

/** A parameter as rcl_interfaces/msg/Parameter (name + ParameterValue with the one active field set). */
export function toParameterMsg(p: Parameter): Record<string, unknown> {
  const v = p.value;
  return {
    name: p.name,
    value: {
      type: PARAMETER_TYPE_CODE[p.type],
      bool_value: p.type === "bool" ? v === true : false,
      integer_value: p.type === "integer" ? BigInt(v as number) : 0n,
      double_value: p.type === "double" ? (v as number) : 0,
      string_value: p.type === "string" ? (v as string) : "",
      byte_array_value: p.type === "byte_array" ? Uint8Array.from(v as ArrayLike<number>) : new Uint8Array(0),
      bool_array_value: p.type === "bool_array" ? [...(v as boolean[])] : [],
      integer_array_value: p.type === "integer_array" ? BigInt64Array.from(v as number[], (n) => BigInt(n)) : new BigInt64Array(0),
      double_array_value: p.type === "double_array" ? Float64Array.from(v as number[]) : new Float64Array(0),
      string_array_value: p.type === "string_array" ? [...(v as string[])] : [],
    },
  };
}
