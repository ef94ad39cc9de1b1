import type { MessageDefinition, MessageDefinitionField } from "@foxglove/message-definition";

import { describeValue } from "./describeValue";
import { BIGINT_RANGES, INTEGER_RANGES, TIME_TYPES, TYPED_ARRAYS } from "./primitives";
import { toRosTypeName } from "./typeNames";

/**
 * A compiled check: returns undefined when the value matches, otherwise the failure text relative
 * to the checked value (".field[3].x: expected ..., got ..."). Paths are built only on failure, so
 * a valid message costs no string allocation.
 */
type Check = (value: unknown) => string | undefined;

/** Thrown by {@link MessageValidator.validate}; `path` is "pkg/msg/Name.field[i].sub". */
export class MessageValidationError extends Error {
  constructor(
    readonly path: string,
    readonly detail: string,
  ) {
    super(`${path}: ${detail}`);
    this.name = "MessageValidationError";
  }
}

/**
 * Checks that a JavaScript value matches a message definition before it is published: every field
 * present with the JavaScript type rosmsg2-serialization writes without loss, no unknown fields,
 * integers in range, fixed and bounded array lengths. Typed arrays are checked by constructor and
 * length, never element by element, so a 196 kB image costs the same as an empty one.
 */
export class MessageValidator {
  readonly #lookup: (internalName: string) => MessageDefinition;
  readonly #checks = new Map<string, Check>();

  constructor(lookup: (internalName: string) => MessageDefinition) {
    this.#lookup = lookup;
  }

  /** Throws MessageValidationError naming the field path and the expected type. */
  validate(internalName: string, value: unknown): void {
    const failure = this.#check(internalName)(value);
    if (failure !== undefined) {
      const rosName = toRosTypeName(internalName);
      const sep = failure.indexOf(": ");
      throw new MessageValidationError(rosName + failure.slice(0, sep), failure.slice(sep + 2));
    }
  }

  #check(internalName: string): Check {
    let check = this.#checks.get(internalName);
    if (check === undefined) {
      // Register a forwarding check first so recursive types resolve lazily.
      this.#checks.set(internalName, (v) => this.#check(internalName)(v));
      check = this.#compileMessage(internalName);
      this.#checks.set(internalName, check);
    }
    return check;
  }

  #compileMessage(internalName: string): Check {
    const definition = this.#lookup(internalName);
    const fields = definition.definitions.filter((f) => f.isConstant !== true);
    const names = new Set(fields.map((f) => f.name));
    const fieldChecks = fields.map((f) => ({ name: f.name, check: this.#compileField(f) }));
    const rosName = toRosTypeName(internalName);
    const fieldList = fields.map((f) => f.name).join(", ");
    return (value) => {
      if (typeof value !== "object" || value === null || Array.isArray(value) || ArrayBuffer.isView(value)) {
        return `: expected ${rosName} (object), got ${describeValue(value)}`;
      }
      const record = value as Record<string, unknown>;
      for (const fc of fieldChecks) {
        const failure = fc.check(record[fc.name]);
        if (failure !== undefined) return `.${fc.name}${failure}`;
      }
      for (const key in record) {
        if (!names.has(key)) return `.${key}: not a field of ${rosName} (fields: ${fieldList})`;
      }
      return undefined;
    };
  }

  #compileField(field: MessageDefinitionField): Check {
    if (field.isArray !== true) return this.#compileScalar(field.type, field.isComplex === true, field.upperBound);
    const element = this.#compileScalar(field.type, field.isComplex === true, field.upperBound);
    const typeText = this.#typeText(field.type, field.isComplex === true);
    const suffix =
      field.arrayLength !== undefined ? `[${field.arrayLength}]` : field.arrayUpperBound !== undefined ? `[<=${field.arrayUpperBound}]` : "[]";
    const typed = field.isComplex === true ? undefined : TYPED_ARRAYS.get(field.type);
    const accepted = typed !== undefined ? `${typed.name} or ${jsElementType(field.type)}[]` : `${jsElementType(field.type)}[]`;
    const lengthText = field.arrayLength !== undefined ? ` of length ${field.arrayLength}` : field.arrayUpperBound !== undefined ? ` of length <= ${field.arrayUpperBound}` : "";
    const expected = `expected ${typeText}${suffix} (${accepted}${lengthText})`;
    const { arrayLength, arrayUpperBound } = field;
    const lengthOk = (n: number): boolean =>
      (arrayLength === undefined || n === arrayLength) && (arrayUpperBound === undefined || n <= arrayUpperBound);
    return (value) => {
      if (typed !== undefined && value instanceof typed) {
        return lengthOk(value.length) ? undefined : `: ${expected}, got ${describeValue(value)}`;
      }
      if (!Array.isArray(value)) return `: ${expected}, got ${describeValue(value)}`;
      if (!lengthOk(value.length)) return `: ${expected}, got ${describeValue(value)}`;
      for (let i = 0; i < value.length; i++) {
        const failure = element(value[i]);
        if (failure !== undefined) return `[${i}]${failure}`;
      }
      return undefined;
    };
  }

  #compileScalar(type: string, isComplex: boolean, upperBound: number | undefined): Check {
    if (isComplex) {
      return (value) => this.#check(type)(value);
    }
    const intRange = INTEGER_RANGES.get(type);
    if (intRange !== undefined) {
      const [lo, hi] = intRange;
      const expected = `: expected ${type} (integer ${lo}..${hi}), got `;
      return (value) =>
        typeof value === "number" && Number.isInteger(value) && value >= lo && value <= hi ? undefined : expected + describeValue(value);
    }
    const bigRange = BIGINT_RANGES.get(type);
    if (bigRange !== undefined) {
      const [lo, hi] = bigRange;
      const expected = `: expected ${type} (bigint ${lo}..${hi}), got `;
      return (value) => (typeof value === "bigint" && value >= lo && value <= hi ? undefined : expected + describeValue(value));
    }
    switch (type) {
      case "float32":
      case "float64": {
        const expected = `: expected ${type} (number), got `;
        return (value) => (typeof value === "number" ? undefined : expected + describeValue(value));
      }
      case "bool":
        return (value) => (typeof value === "boolean" ? undefined : `: expected bool (boolean), got ${describeValue(value)}`);
      case "string": {
        if (upperBound === undefined) {
          return (value) => (typeof value === "string" ? undefined : `: expected string, got ${describeValue(value)}`);
        }
        return (value) =>
          typeof value === "string" && value.length <= upperBound
            ? undefined
            : `: expected string<=${upperBound}, got ${typeof value === "string" ? `string of length ${value.length}` : describeValue(value)}`;
      }
      case "time":
      case "duration": {
        const rosName = toRosTypeName(TIME_TYPES.get(type) ?? "");
        const sec = INTEGER_RANGES.get("int32") ?? [0, 0];
        const nsec = INTEGER_RANGES.get("uint32") ?? [0, 0];
        return (value) => {
          if (typeof value !== "object" || value === null) return `: expected ${rosName} ({sec, nanosec}), got ${describeValue(value)}`;
          const t = value as { sec?: unknown; nanosec?: unknown };
          const s = t.sec;
          if (typeof s !== "number" || !Number.isInteger(s) || s < sec[0] || s > sec[1]) {
            return `.sec: expected int32 (integer ${sec[0]}..${sec[1]}), got ${describeValue(s)}`;
          }
          const n = t.nanosec;
          if (typeof n !== "number" || !Number.isInteger(n) || n < nsec[0] || n > nsec[1]) {
            return `.nanosec: expected uint32 (integer ${nsec[0]}..${nsec[1]}), got ${describeValue(n)}`;
          }
          for (const key in t) {
            if (key !== "sec" && key !== "nanosec") return `.${key}: not a field of ${rosName} (fields: sec, nanosec)`;
          }
          return undefined;
        };
      }
      default:
        // wstring is implementation-defined and rosmsg2-serialization cannot write it.
        return () => `: field type ${type} is not supported by the CDR writer`;
    }
  }

  #typeText(type: string, isComplex: boolean): string {
    if (isComplex) return toRosTypeName(type);
    const time = TIME_TYPES.get(type);
    return time !== undefined ? toRosTypeName(time) : type;
  }
}

function jsElementType(type: string): string {
  if (type === "bool") return "boolean";
  if (type === "string") return "string";
  if (BIGINT_RANGES.has(type)) return "bigint";
  if (type === "time" || type === "duration") return "{sec, nanosec}";
  if (INTEGER_RANGES.has(type) || type === "float32" || type === "float64") return "number";
  return "object";
}
