/**
 * Typed parameter declaration for the nodes: declares with a default and a descriptor (type,
 * description, range or choices, as rcl_interfaces/ParameterDescriptor) and returns the value
 * with its TypeScript type. A value of the wrong type or outside its range throws a RangeError
 * naming the parameter, its value and what is valid (the node's configure transition then fails).
 */
import type { ParameterDescriptor, RosNode } from "../../../src/ros/graph/types";

function fail(node: RosNode, name: string, value: unknown, expected: string): never {
  throw new RangeError(`${node.name}: parameter ${name}=${JSON.stringify(value)}, expected ${expected}`);
}

export function declareDouble(node: RosNode, name: string, def: number, description: string, range?: { from: number; to: number }): number {
  const d: ParameterDescriptor = { type: "double", description, ...(range ? { range } : {}) };
  const v = node.declareParameter(name, def, d);
  if (typeof v !== "number" || Number.isNaN(v)) fail(node, name, v, "a double");
  if (range && !(v >= range.from && v <= range.to)) fail(node, name, v, `a double in [${range.from}, ${range.to}]`);
  return v;
}

export function declareInt(node: RosNode, name: string, def: number, description: string, range?: { from: number; to: number; step?: number }): number {
  const d: ParameterDescriptor = { type: "integer", description, ...(range ? { range } : {}) };
  const v = node.declareParameter(name, def, d);
  if (typeof v !== "number" || !Number.isInteger(v)) fail(node, name, v, "an integer");
  if (range && !(v >= range.from && v <= range.to)) fail(node, name, v, `an integer in [${range.from}, ${range.to}]`);
  return v;
}

export function declareBool(node: RosNode, name: string, def: boolean, description: string): boolean {
  const v = node.declareParameter(name, def, { type: "bool", description });
  if (typeof v !== "boolean") fail(node, name, v, "a bool");
  return v;
}

export function declareString<T extends string>(node: RosNode, name: string, def: T, description: string, choices?: readonly T[]): T {
  const v = node.declareParameter(name, def, { type: "string", description, ...(choices ? { choices } : {}) });
  if (typeof v !== "string") fail(node, name, v, "a string");
  if (choices && !(choices as readonly string[]).includes(v)) fail(node, name, v, `one of ${choices.join(", ")}`);
  return v as T;
}

export function declareStringArray(node: RosNode, name: string, def: string[], description: string): string[] {
  const v = node.declareParameter(name, def, { type: "string_array", description });
  if (!Array.isArray(v) || !v.every((x) => typeof x === "string")) fail(node, name, v, "a string array");
  return v;
}
