import type { MessageDefinition, MessageDefinitionField } from "@foxglove/message-definition";
import { TIME_TYPES } from "../msgs/primitives";

/**
 * Cyclone DDS 0.10 serializer programs ("ops", dds/ddsc/dds_opcodes.h) generated at run time from
 * a ROS 2 message definition, so a topic of any type needs no per-type C code. Cyclone's default
 * serdata checks every received or written CDR stream against these ops (dds_stream_normalize),
 * so they must describe the wire layout exactly: XCDR1, the layout of the `final` structs that
 * rosidl_generator_dds_idl emits and rmw_cyclonedds_cpp sends.
 *
 * Memory offsets in the ops are all 0: they matter only when Cyclone converts to or from a C
 * struct, which this transport never asks for (it hands Cyclone CDR bytes: ddsi_serdata_from_ser_iov,
 * dds_writecdr, dds_takecdr). The one exception is the sertype probe (DdsParticipant), which
 * writes an all-zero "C sample" of `sampleSize` bytes: with every field at offset 0 that reads as
 * zeros, empty strings and empty sequences, a valid message.
 *
 * Nested structs are written inline (CDR has no struct framing in XCDR1); arrays and sequences of
 * structs jump to an element subroutine placed after the main program, as idlc lays them out.
 */

const OP_RTS = 0x00 << 24;
const OP_ADR = 0x01 << 24;
const VAL = { "1BY": 0x01, "2BY": 0x02, "4BY": 0x03, "8BY": 0x04, STR: 0x05, SEQ: 0x07, ARR: 0x08, STU: 0x0a, BLN: 0x0e } as const;
type Val = keyof typeof VAL;
const FLAG_FP = 1 << 1;
const FLAG_SGN = 1 << 2;
/** Bytes a dds_sequence_t takes in a C sample (maximum, length, buffer, release). */
const C_SEQUENCE_SIZE = 24;
const C_POINTER_SIZE = 8;

const PRIMITIVES: ReadonlyMap<string, { val: Val; flags: number; size: number }> = new Map([
  ["bool", { val: "BLN", flags: 0, size: 1 }],
  ["int8", { val: "1BY", flags: FLAG_SGN, size: 1 }],
  ["uint8", { val: "1BY", flags: 0, size: 1 }],
  ["byte", { val: "1BY", flags: 0, size: 1 }],
  ["char", { val: "1BY", flags: 0, size: 1 }],
  ["int16", { val: "2BY", flags: FLAG_SGN, size: 2 }],
  ["uint16", { val: "2BY", flags: 0, size: 2 }],
  ["int32", { val: "4BY", flags: FLAG_SGN, size: 4 }],
  ["uint32", { val: "4BY", flags: 0, size: 4 }],
  ["float32", { val: "4BY", flags: FLAG_FP, size: 4 }],
  ["int64", { val: "8BY", flags: FLAG_SGN, size: 8 }],
  ["uint64", { val: "8BY", flags: 0, size: 8 }],
  ["float64", { val: "8BY", flags: FLAG_FP, size: 8 }],
]);

export type TopicOps = {
  /** The serializer program, ending with DDS_OP_RTS (plus element subroutines). */
  readonly ops: Uint32Array;
  /** Bytes of an all-zero C sample that the ops can read without leaving the buffer. */
  readonly sampleSize: number;
};

/** Looks up a complex field type ("pkg/Name" or "pkg/msg/Name"). */
export type DefinitionLookup = (typeName: string) => MessageDefinition;

type Pending = { insn: number; patch: number; nextInsn: number; type: string };

/**
 * The ops of one message type. Throws naming the field for types the ROS 2 wire cannot carry
 * here (wstring).
 */
export function topicOps(typeName: string, lookup: DefinitionLookup): TopicOps {
  const ops: number[] = [];
  const pending: Pending[] = [];
  const sampleSize = emitStruct(typeName, lookup, ops, pending);
  ops.push(OP_RTS);
  const bodies = new Map<string, number>();
  while (pending.length > 0) {
    const p = pending.shift() as Pending;
    let start = bodies.get(p.type);
    if (start === undefined) {
      start = ops.length;
      bodies.set(p.type, start);
      emitStruct(p.type, lookup, ops, pending);
      ops.push(OP_RTS);
    }
    const jump = start - p.insn;
    if (jump > 0xffff) throw new Error(`topicOps(${typeName}): element program of ${p.type} is ${jump} ops away, more than 65535`);
    ops[p.patch] = ((p.nextInsn << 16) | jump) >>> 0;
  }
  return { ops: Uint32Array.from(ops), sampleSize: Math.max(8, roundUp8(sampleSize)) };
}

/** Appends the (flattened) fields of a struct; returns its all-zero C sample size bound. */
function emitStruct(typeName: string, lookup: DefinitionLookup, ops: number[], pending: Pending[]): number {
  const def = lookup(typeName);
  const fields = def.definitions.filter((f) => f.isConstant !== true);
  if (fields.length === 0) {
    // rosidl_generator_dds_idl gives an empty message one member, `uint8 structure_needs_at_least_one_member`.
    ops.push(OP_ADR | (VAL["1BY"] << 16), 0);
    return 1;
  }
  let size = 0;
  for (const f of fields) size = Math.max(size, emitField(typeName, f, lookup, ops, pending));
  return size;
}

function emitField(owner: string, f: MessageDefinitionField, lookup: DefinitionLookup, ops: number[], pending: Pending[]): number {
  const type = TIME_TYPES.get(f.type) ?? f.type;
  const prim = PRIMITIVES.get(type);
  const isString = type === "string";
  if (type === "wstring") throw new Error(`topicOps: ${owner}.${f.name} is a wstring, which this transport does not carry`);
  const isStruct = prim === undefined && !isString;
  const fixed = f.isArray === true && f.arrayLength !== undefined ? f.arrayLength : undefined;
  if (f.isArray !== true) {
    if (prim !== undefined) ops.push(OP_ADR | (VAL[prim.val] << 16) | prim.flags, 0);
    else if (isString) ops.push(OP_ADR | (VAL.STR << 16), 0);
    else return emitStruct(type, lookup, ops, pending);
    return prim?.size ?? C_POINTER_SIZE;
  }
  const kind = fixed !== undefined ? VAL.ARR : VAL.SEQ;
  const sub = prim !== undefined ? VAL[prim.val] : isString ? VAL.STR : VAL.STU;
  const insn = ops.length;
  ops.push(OP_ADR | (kind << 16) | (sub << 8) | (prim?.flags ?? 0), 0);
  if (!isStruct) {
    if (fixed !== undefined) ops.push(fixed);
    return fixed !== undefined ? fixed * (prim?.size ?? C_POINTER_SIZE) : C_SEQUENCE_SIZE;
  }
  // Element size in the zero sample: the element struct's own bound (found by a dry run).
  const elemSize = roundUp8(Math.max(8, emitStruct(type, lookup, [], [])));
  if (fixed !== undefined) {
    // ADR|ARR|STU, offset, count, (next << 16) + elem-insn, elem-size   (idlc's layout)
    ops.push(fixed, 0, elemSize);
    pending.push({ insn, patch: insn + 3, nextInsn: 5, type });
    return fixed * elemSize;
  }
  // ADR|SEQ|STU, offset, elem-size, (next << 16) + elem-insn
  ops.push(elemSize, 0);
  pending.push({ insn, patch: insn + 3, nextInsn: 4, type });
  return C_SEQUENCE_SIZE;
}

function roundUp8(n: number): number {
  return Math.ceil(n / 8) * 8;
}
