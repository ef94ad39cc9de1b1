import type { Parameter, ParameterDescriptor, ParameterType, ParameterValue, SetParametersResult } from "./types";

type Entry = { descriptor: ParameterDescriptor; value: ParameterValue };

/**
 * A node's declared parameters with rclcpp semantics (rclcpp/node_interfaces/
 * node_parameters.cpp): declare once with a descriptor, overrides replace the default at declare
 * time, `setParameters` checks each parameter separately (type, read-only, range, choices, then the
 * on-set callbacks) and reports a reason naming the parameter and the valid range.
 */
export class ParameterStore {
  readonly #entries = new Map<string, Entry>();
  readonly #callbacks: Array<(params: Parameter[]) => SetParametersResult> = [];
  readonly #listeners: Array<(param: Parameter) => void> = [];
  readonly #overrides: Readonly<Record<string, ParameterValue>>;
  readonly #owner: string;

  /** `owner` names the node in errors ("/ns/node"). */
  constructor(owner: string, overrides: Readonly<Record<string, ParameterValue>> = {}) {
    this.#owner = owner;
    this.#overrides = overrides;
  }

  declare(name: string, defaultValue: ParameterValue, descriptor: ParameterDescriptor): ParameterValue {
    if (!/^[A-Za-z_][A-Za-z0-9_.]*$/.test(name)) {
      throw new Error(`${this.#owner}: invalid parameter name "${name}": letters, digits, "_" and "." only`);
    }
    if (this.#entries.has(name)) throw new Error(`${this.#owner}: parameter '${name}' has already been declared`);
    const override = Object.prototype.hasOwnProperty.call(this.#overrides, name) ? this.#overrides[name] : undefined;
    const value = override ?? defaultValue;
    const problem = checkValue(name, value, descriptor);
    if (problem !== undefined) {
      throw new Error(`${this.#owner}: ${override !== undefined ? "override for " : "default of "}${problem}`);
    }
    this.#entries.set(name, { descriptor, value: copyValue(value) });
    return copyValue(value);
  }

  has(name: string): boolean {
    return this.#entries.has(name);
  }

  get(name: string): Parameter {
    const entry = this.#entries.get(name);
    if (entry === undefined) throw new Error(`${this.#owner}: parameter '${name}' is not declared`);
    return { name, type: entry.descriptor.type, value: copyValue(entry.value) };
  }

  names(): string[] {
    return [...this.#entries.keys()].sort();
  }

  descriptor(name: string): ParameterDescriptor | undefined {
    return this.#entries.get(name)?.descriptor;
  }

  addOnSetCallback(cb: (params: Parameter[]) => SetParametersResult): void {
    this.#callbacks.push(cb);
  }

  /** Called after a parameter was accepted and applied (rclcpp post-set callbacks). */
  addPostSetListener(listener: (param: Parameter) => void): void {
    this.#listeners.push(listener);
  }

  /** One result per parameter, in order; accepted parameters are applied, rejected ones are not. */
  set(params: Parameter[]): SetParametersResult[] {
    return params.map((p) => this.#setOne(p));
  }

  #setOne(p: Parameter): SetParametersResult {
    const entry = this.#entries.get(p.name);
    if (entry === undefined) return { successful: false, reason: `parameter '${p.name}' is not declared` };
    const declared = entry.descriptor.type;
    if (p.type !== declared && !(p.type === "integer" && declared === "double")) {
      return { successful: false, reason: `parameter '${p.name}' has type ${declared}, cannot set a ${p.type} value` };
    }
    if (entry.descriptor.readOnly === true) return { successful: false, reason: `parameter '${p.name}' is read-only` };
    const problem = checkValue(p.name, p.value, entry.descriptor);
    if (problem !== undefined) return { successful: false, reason: problem };
    const candidate: Parameter = { name: p.name, type: declared, value: copyValue(p.value) };
    for (const cb of this.#callbacks) {
      const result = cb([candidate]);
      if (!result.successful) return { successful: false, reason: result.reason };
    }
    entry.value = candidate.value;
    for (const listener of this.#listeners) listener({ name: candidate.name, type: candidate.type, value: copyValue(candidate.value) });
    return { successful: true, reason: "" };
  }
}

/** Why a value does not fit a descriptor ("parameter 'max_speed'=12 is out of range [0, 10]"), or undefined. */
export function checkValue(name: string, value: ParameterValue, d: ParameterDescriptor): string | undefined {
  const typeProblem = checkType(value, d.type);
  if (typeProblem !== undefined) return `parameter '${name}': expected ${d.type}, got ${typeProblem}`;
  if (d.range !== undefined) {
    const numbers = typeof value === "number" ? [value] : Array.isArray(value) && d.type !== "string_array" && d.type !== "bool_array" ? (value as number[]) : [];
    const { from, to, step } = d.range;
    const rangeText = `[${from}, ${to}]${step !== undefined && step !== 0 ? ` (step ${step})` : ""}`;
    for (const v of numbers) {
      if (!(v >= from && v <= to)) return `parameter '${name}'=${v} is out of range ${rangeText}`;
      if (step !== undefined && step !== 0 && v !== to) {
        // rcl_interfaces/FloatingPointRange: valid values are from + k*step, and `to`.
        const k = (v - from) / step;
        if (Math.abs(k - Math.round(k)) > 1e-9 * Math.max(1, Math.abs(k))) {
          return `parameter '${name}'=${v} is not on the step grid of ${rangeText}`;
        }
      }
    }
  }
  if (d.choices !== undefined) {
    const strings = typeof value === "string" ? [value] : d.type === "string_array" ? (value as string[]) : [];
    for (const s of strings) {
      if (!d.choices.includes(s)) return `parameter '${name}'="${s}" is not one of [${d.choices.join(", ")}]`;
    }
  }
  return undefined;
}

function checkType(value: ParameterValue, type: ParameterType): string | undefined {
  const got = Array.isArray(value) ? "array" : value instanceof Uint8Array ? "Uint8Array" : typeof value;
  switch (type) {
    case "bool":
      return typeof value === "boolean" ? undefined : got;
    case "integer":
      return typeof value === "number" && Number.isSafeInteger(value) ? undefined : typeof value === "number" ? `non-integer ${value}` : got;
    case "double":
      return typeof value === "number" ? undefined : got;
    case "string":
      return typeof value === "string" ? undefined : got;
    case "byte_array":
      return value instanceof Uint8Array || (Array.isArray(value) && value.every((v) => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 255))
        ? undefined
        : got;
    case "bool_array":
      return Array.isArray(value) && value.every((v) => typeof v === "boolean") ? undefined : got;
    case "integer_array":
      return Array.isArray(value) && value.every((v) => Number.isSafeInteger(v)) ? undefined : got;
    case "double_array":
      return Array.isArray(value) && value.every((v) => typeof v === "number") ? undefined : got;
    case "string_array":
      return Array.isArray(value) && value.every((v) => typeof v === "string") ? undefined : got;
  }
}

function copyValue(v: ParameterValue): ParameterValue {
  if (v instanceof Uint8Array) return new Uint8Array(v);
  if (Array.isArray(v)) return [...v] as ParameterValue;
  return v;
}
