import type { MessageDefinitionField } from "@foxglove/message-definition";

import type { MessageRegistry } from "../../../src/ros/msgs";

/**
 * A deterministic pseudo-random message of a type, with every field set to a non-default value
 * that survives CDR exactly (float32 values rounded with Math.fround, integers in range, 64-bit
 * integers as bigint, numeric arrays as the matching typed array). Test helper.
 */
export function randomMessage(registry: MessageRegistry, typeName: string, seed = 1): Record<string, unknown> {
  let state = seed >>> 0 || 1;
  const next = (): number => {
    // xorshift32
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 0x100000000;
  };
  const scalar = (type: string): unknown => {
    switch (type) {
      case "bool":
        return next() < 0.5;
      case "int8":
        return Math.floor(next() * 256) - 128;
      case "uint8":
        return Math.floor(next() * 256);
      case "int16":
        return Math.floor(next() * 65536) - 32768;
      case "uint16":
        return Math.floor(next() * 65536);
      case "int32":
        return Math.floor(next() * 4294967296) - 2147483648;
      case "uint32":
        return Math.floor(next() * 4294967296);
      case "int64":
        return BigInt(Math.floor(next() * 2 ** 52)) - 2n ** 51n;
      case "uint64":
        return BigInt(Math.floor(next() * 2 ** 52)) * 4096n;
      case "float32":
        return Math.fround((next() - 0.5) * 1000);
      case "float64":
        return (next() - 0.5) * 1e6;
      case "string":
        return `s${Math.floor(next() * 1e6)}`;
      case "time":
      case "duration":
        return { sec: Math.floor(next() * 2e9), nanosec: Math.floor(next() * 1e9) };
      default:
        throw new Error(`randomMessage: unsupported type ${type}`);
    }
  };
  const typedArrays: Record<string, new (n: number) => { [i: number]: number | bigint; length: number }> = {
    int8: Int8Array,
    uint8: Uint8Array,
    int16: Int16Array,
    uint16: Uint16Array,
    int32: Int32Array,
    uint32: Uint32Array,
    float32: Float32Array,
    float64: Float64Array,
    int64: BigInt64Array,
    uint64: BigUint64Array,
  };
  const field = (f: MessageDefinitionField, depth: number): unknown => {
    const one = (): unknown => (f.isComplex === true ? build(f.type, depth + 1) : scalar(f.type));
    if (f.isArray !== true) return one();
    const n = f.arrayLength ?? Math.min(f.arrayUpperBound ?? 3, depth > 3 ? 0 : 1 + Math.floor(next() * 3));
    const Typed = f.isComplex === true ? undefined : typedArrays[f.type];
    if (Typed !== undefined) {
      const arr = new Typed(n);
      for (let i = 0; i < n; i++) arr[i] = scalar(f.type) as number | bigint;
      return arr;
    }
    return Array.from({ length: n }, one);
  };
  const build = (type: string, depth: number): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const f of registry.definition(type).definitions) {
      if (f.isConstant !== true) out[f.name] = field(f, depth);
    }
    return out;
  };
  return build(typeName, 0);
}
