import type { Parameter, ParameterType, ParameterValue } from "../graph/types";

/** A parameter value with its ROS 2 type (rcl_interfaces/msg/ParameterType), as read from YAML or `-p`. */
export type TypedParameterValue = { type: ParameterType; value: ParameterValue };

/** Parameters by dotted name, in file order. */
export type TypedParameters = Map<string, TypedParameterValue>;

/** Converts to the `NodeOptions.parameterOverrides` shape of src/ros/graph/types.ts. */
export function toOverrides(params: TypedParameters): Record<string, ParameterValue> {
  const out: Record<string, ParameterValue> = {};
  for (const [name, p] of params) out[name] = p.value;
  return out;
}

/** Converts to `Parameter` records (name, type, value). */
export function toParameterList(params: TypedParameters): Parameter[] {
  return [...params].map(([name, p]) => ({ name, type: p.type, value: p.value }));
}
