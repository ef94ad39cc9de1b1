import type { MessageDefinition, MessageDefinitionField } from "@foxglove/message-definition";

/**
 * Serializes messages to ROS 2 CDR (XCDR1, little endian, encapsulation header 00 01 00 00):
 * every primitive aligned to its size (8 for 64-bit) counted from the end of the 4-byte header,
 * strings as uint32 byte length (UTF-8 bytes + NUL) then the bytes, sequences as uint32 count then
 * the elements, fixed arrays as the elements only, an empty struct as one uint8.
 *
 * Why not @foxglove/rosmsg2-serialization's MessageWriter: @foxglove/cdr 3.5.0's
 * CdrWriter.string() uses the JavaScript (UTF-16) length for the length prefix and the payload,
 * so any non-ASCII string is truncated and later fields shift (fixed upstream in foxglove/cdr#35,
 * not in a release available here). This writer produces the same bytes as MessageWriter for
 * ASCII text (checked field type by field type in test/ros/msgs/CdrMessageWriter.test.ts) and
 * the correct ones otherwise. Missing fields are written as zero/empty (or their .msg default),
 * as MessageWriter does. The size is computed first, so each message allocates one buffer.
 */
export class CdrMessageWriter {
  readonly #lookup: (internalName: string) => MessageDefinition;
  readonly #plans = new Map<string, Plan>();

  constructor(lookup: (internalName: string) => MessageDefinition) {
    this.#lookup = lookup;
  }

  write(internalName: string, message: unknown): Uint8Array {
    const plan = this.#plan(internalName);
    // Offsets are absolute (the 4-byte encapsulation header included), like the write cursor.
    const size = plan.size(message, 4);
    const out = new Uint8Array(size);
    out[1] = 1; // CDR_LE
    const cursor: Cursor = { view: new DataView(out.buffer), bytes: out, pos: 4 };
    plan.write(message, cursor);
    if (cursor.pos !== size) throw new Error(`CDR writer: wrote ${cursor.pos} bytes, sized ${size} (${internalName})`);
    return out;
  }

  #plan(internalName: string): Plan {
    let plan = this.#plans.get(internalName);
    if (plan === undefined) {
      // Forwarding entry first, so recursive types resolve lazily.
      const forward: Plan = { size: (m, o) => this.#plan(internalName).size(m, o), write: (m, c) => this.#plan(internalName).write(m, c) };
      this.#plans.set(internalName, forward);
      plan = this.#compileStruct(this.#lookup(internalName).definitions);
      this.#plans.set(internalName, plan);
    }
    return plan;
  }

  #compileStruct(definitions: readonly MessageDefinitionField[]): Plan {
    const fields = definitions.filter((f) => f.isConstant !== true);
    if (fields.length === 0) {
      // rosidl gives empty messages one uint8 member ("structure_needs_at_least_one_member").
      return {
        size: (_m, o) => o + 1,
        write: (_m, c) => {
          c.bytes[c.pos++] = 0;
        },
      };
    }
    const plans = fields.map((f) => ({ name: f.name, plan: this.#compileField(f) }));
    return {
      size: (m, o) => {
        const rec = asRecord(m);
        let off = o;
        for (const p of plans) off = p.plan.size(rec?.[p.name], off);
        return off;
      },
      write: (m, c) => {
        const rec = asRecord(m);
        for (const p of plans) p.plan.write(rec?.[p.name], c);
      },
    };
  }

  #compileField(f: MessageDefinitionField): Plan {
    const element = f.isComplex === true ? this.#complex(f.type) : primitivePlan(f.type, f.defaultValue);
    if (f.isArray !== true) return element;
    const fixed = f.arrayLength;
    const prim = f.isComplex === true ? undefined : PRIMITIVES.get(f.type);
    const fallback = Array.isArray(f.defaultValue) ? (f.defaultValue as unknown[]) : undefined;
    const items = (v: unknown): ArrayLike<unknown> => {
      const arr = Array.isArray(v) || ArrayBuffer.isView(v) ? (v as unknown as ArrayLike<unknown>) : (fallback ?? EMPTY);
      if (fixed !== undefined && arr.length !== fixed) {
        if (arr === EMPTY) return { length: fixed };
        throw new Error(`expected ${fixed} items for fixed-length array field ${f.name}, got ${arr.length}`);
      }
      return arr;
    };
    return {
      size: (v, o) => {
        const arr = items(v);
        let off = o;
        if (fixed === undefined) off = align(off, 4) + 4;
        if (prim !== undefined && arr.length > 0) return align(off, prim.align) + prim.size * arr.length;
        for (let i = 0; i < arr.length; i++) off = element.size(arr[i], off);
        return off;
      },
      write: (v, c) => {
        const arr = items(v);
        if (fixed === undefined) {
          padTo(c, 4);
          c.view.setUint32(c.pos, arr.length, true);
          c.pos += 4;
        }
        if (prim !== undefined && arr.length > 0) {
          padTo(c, prim.align);
          if (HOST_LITTLE_ENDIAN && prim.typed !== undefined && arr instanceof prim.typed) {
            const t = arr as unknown as ArrayBufferView;
            c.bytes.set(new Uint8Array(t.buffer, t.byteOffset, t.byteLength), c.pos);
            c.pos += t.byteLength;
            return;
          }
        }
        for (let i = 0; i < arr.length; i++) element.write(arr[i], c);
      },
    };
  }

  #complex(type: string): Plan {
    return { size: (m, o) => this.#plan(type).size(m, o), write: (m, c) => this.#plan(type).write(m, c) };
  }
}

type Cursor = { view: DataView; bytes: Uint8Array; pos: number };
type Plan = { size(value: unknown, offset: number): number; write(value: unknown, cursor: Cursor): void };

const EMPTY: ArrayLike<unknown> = [];
const HOST_LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const encoder = new TextEncoder();

type Primitive = {
  size: number;
  align: number;
  typed?: new (n: number) => ArrayBufferView;
  put(view: DataView, pos: number, value: unknown, fallback: unknown): void;
};

const num = (v: unknown, d: unknown): number => (typeof v === "number" ? v : typeof d === "number" ? d : 0);
const big = (v: unknown, d: unknown): bigint =>
  typeof v === "bigint" ? v : typeof v === "number" ? BigInt(v) : typeof d === "bigint" ? d : typeof d === "number" ? BigInt(d) : 0n;

const PRIMITIVES: ReadonlyMap<string, Primitive> = new Map<string, Primitive>([
  ["bool", { size: 1, align: 1, put: (w, p, v, d) => w.setUint8(p, (typeof v === "boolean" ? v : d === true) ? 1 : 0) }],
  ["int8", { size: 1, align: 1, typed: Int8Array, put: (w, p, v, d) => w.setInt8(p, num(v, d)) }],
  ["uint8", { size: 1, align: 1, typed: Uint8Array, put: (w, p, v, d) => w.setUint8(p, num(v, d)) }],
  ["int16", { size: 2, align: 2, typed: Int16Array, put: (w, p, v, d) => w.setInt16(p, num(v, d), true) }],
  ["uint16", { size: 2, align: 2, typed: Uint16Array, put: (w, p, v, d) => w.setUint16(p, num(v, d), true) }],
  ["int32", { size: 4, align: 4, typed: Int32Array, put: (w, p, v, d) => w.setInt32(p, num(v, d), true) }],
  ["uint32", { size: 4, align: 4, typed: Uint32Array, put: (w, p, v, d) => w.setUint32(p, num(v, d), true) }],
  ["int64", { size: 8, align: 8, typed: BigInt64Array, put: (w, p, v, d) => w.setBigInt64(p, big(v, d), true) }],
  ["uint64", { size: 8, align: 8, typed: BigUint64Array, put: (w, p, v, d) => w.setBigUint64(p, big(v, d), true) }],
  ["float32", { size: 4, align: 4, typed: Float32Array, put: (w, p, v, d) => w.setFloat32(p, num(v, d), true) }],
  ["float64", { size: 8, align: 8, typed: Float64Array, put: (w, p, v, d) => w.setFloat64(p, num(v, d), true) }],
  [
    "time",
    {
      size: 8,
      align: 4,
      put: (w, p, v) => {
        const t = asRecord(v);
        w.setInt32(p, num(t?.sec, 0), true);
        w.setUint32(p + 4, num(t?.nanosec ?? t?.nsec, 0), true);
      },
    },
  ],
]);

function primitivePlan(type: string, defaultValue: unknown): Plan {
  if (type === "string") {
    return {
      size: (v, o) => align(o, 4) + 4 + utf8Length(typeof v === "string" ? v : typeof defaultValue === "string" ? defaultValue : "") + 1,
      write: (v, c) => {
        const s = typeof v === "string" ? v : typeof defaultValue === "string" ? defaultValue : "";
        padTo(c, 4);
        const start = c.pos + 4;
        const { written } = encoder.encodeInto(s, c.bytes.subarray(start));
        c.view.setUint32(c.pos, written + 1, true);
        c.bytes[start + written] = 0;
        c.pos = start + written + 1;
      },
    };
  }
  const prim = PRIMITIVES.get(type === "duration" ? "time" : type);
  if (prim === undefined) throw new Error(`CDR writer: unsupported field type ${type}`);
  return {
    size: (_v, o) => align(o, prim.align) + prim.size,
    write: (v, c) => {
      padTo(c, prim.align);
      prim.put(c.view, c.pos, v, defaultValue);
      c.pos += prim.size;
    },
  };
}

/** Offsets are absolute in the buffer; alignment counts from the end of the 4-byte header. */
function align(offset: number, n: number): number {
  const r = (offset - 4) % n;
  return r === 0 ? offset : offset + n - r;
}

function padTo(c: Cursor, n: number): void {
  const to = align(c.pos, n);
  while (c.pos < to) c.bytes[c.pos++] = 0;
}

/** UTF-8 byte length of a JavaScript string (lone surrogates count 3, as TextEncoder writes U+FFFD). */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

function asRecord(v: unknown): Record<string, unknown> | undefined {
  return typeof v === "object" && v !== null ? (v as Record<string, unknown>) : undefined;
}
