import type { ParameterType, ParameterValue, QoSProfile } from "../graph/types";
import { PARAMETER_TYPE_CODE } from "../graph/parameterMsg";
import type { RclnodejsModule, RclParameter, RclQoS } from "./rclnodejsApi";

/** rclnodejs QoS.HistoryPolicy / ReliabilityPolicy / DurabilityPolicy codes (qos.d.ts = rmw enums). */
const HISTORY = { keep_last: 1, keep_all: 2 } as const;
const RELIABILITY = { reliable: 1, best_effort: 2 } as const;
const DURABILITY = { transient_local: 1, volatile: 2 } as const;

export function toRclQoS(rcl: RclnodejsModule, qos: QoSProfile): RclQoS {
  return new rcl.QoS(HISTORY[qos.history], qos.depth, RELIABILITY[qos.reliability], DURABILITY[qos.durability]);
}

/** rclnodejs's ParameterType uses the rcl_interfaces/msg/ParameterType codes (parameter.d.ts). */
export function parameterTypeOfCode(code: number): ParameterType {
  for (const [name, c] of Object.entries(PARAMETER_TYPE_CODE)) if (c === code) return name as ParameterType;
  throw new Error(`rclnodejs parameter type code ${code}: expected 1..9 (PARAMETER_NOT_SET is 0)`);
}

/** Our value -> rclnodejs's: integers are bigint there (lib/parameter.js integer_value: BigInt). */
export function toRclValue(type: ParameterType, value: ParameterValue): unknown {
  switch (type) {
    case "integer":
      return BigInt(value as number);
    case "integer_array":
      return (value as number[]).map((v) => BigInt(v));
    case "byte_array":
      return Array.from(value as Uint8Array | number[]);
    case "bool":
    case "double":
    case "string":
    case "bool_array":
    case "double_array":
    case "string_array":
      return value;
  }
}

export function fromRclValue(type: ParameterType, value: unknown): ParameterValue {
  switch (type) {
    case "integer":
      return Number(value);
    case "integer_array":
      return Array.from(value as ArrayLike<bigint | number>, (v) => Number(v));
    case "double_array":
      return Array.from(value as ArrayLike<number>);
    case "byte_array":
      return Uint8Array.from(value as ArrayLike<number>);
    case "bool_array":
      return Array.from(value as ArrayLike<boolean>);
    case "string_array":
      return Array.from(value as ArrayLike<string>);
    case "bool":
    case "double":
    case "string":
      return value as ParameterValue;
  }
}

export function fromRclParameter(p: RclParameter): { name: string; type: ParameterType; value: ParameterValue } {
  const type = parameterTypeOfCode(p.type);
  return { name: p.name, type, value: fromRclValue(type, p.value) };
}
