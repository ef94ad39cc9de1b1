import type { MessageDefinition, MessageDefinitionField } from "@foxglove/message-definition";

import { BIGINT_RANGES, TYPED_ARRAYS } from "./primitives";

/**
 * A message with every field at its zero value (numbers 0, int64 0n, bool false, strings "",
 * dynamic arrays empty, fixed arrays filled with zero elements), or the field's default value from
 * the .msg file (`float32 x 1.5`). Numeric arrays are typed arrays, as MessageReader returns them.
 * Each call returns fresh objects.
 */
export function defaultMessage(internalName: string, lookup: (internalName: string) => MessageDefinition): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of lookup(internalName).definitions) {
    if (field.isConstant === true) continue;
    out[field.name] = defaultField(field, lookup);
  }
  return out;
}

function defaultField(field: MessageDefinitionField, lookup: (internalName: string) => MessageDefinition): unknown {
  if (field.isArray === true) {
    const n = field.arrayLength ?? 0;
    const typed = field.isComplex === true ? undefined : TYPED_ARRAYS.get(field.type);
    const fromDefault = field.defaultValue;
    if (typed !== undefined) {
      if (Array.isArray(fromDefault)) {
        return BIGINT_RANGES.has(field.type)
          ? new (typed as BigInt64ArrayConstructor)((fromDefault as unknown[]).map((v) => BigInt(v as bigint)))
          : new (typed as Float64ArrayConstructor)(fromDefault as number[]);
      }
      return new typed(n);
    }
    if (Array.isArray(fromDefault)) return [...(fromDefault as unknown[])];
    const element = { ...field, isArray: false, arrayLength: undefined, defaultValue: undefined };
    return Array.from({ length: n }, () => defaultField(element, lookup));
  }
  if (field.isComplex === true) return defaultMessage(field.type, lookup);
  if (field.defaultValue !== undefined) {
    return BIGINT_RANGES.has(field.type) ? BigInt(field.defaultValue as bigint) : field.defaultValue;
  }
  switch (field.type) {
    case "bool":
      return false;
    case "string":
    case "wstring":
      return "";
    case "time":
    case "duration":
      return { sec: 0, nanosec: 0 };
    default:
      return BIGINT_RANGES.has(field.type) ? 0n : 0;
  }
}
