import type { MessageDefinition, MessageDefinitionField } from "@foxglove/message-definition";
import { parse } from "@foxglove/rosmsg";
import { MessageReader } from "@foxglove/rosmsg2-serialization";

import { CdrMessageWriter } from "./CdrMessageWriter";
import "./boundSequenceLengths";
import { MessageDecodeError } from "./MessageDecodeError";

import { defaultMessage } from "./defaultMessage";
import type { MsgFile } from "./MsgFile";
import { MessageValidator } from "./MessageValidator";
import { isPrimitive, TIME_TYPES } from "./primitives";
import { joinRos2MsgText, stringifyDefinition } from "./ros2msgText";
import { packageOf, toInternalTypeName, toRosTypeName } from "./typeNames";

export type MessageRegistryOptions = {
  /** Parsed definitions keyed "pkg/Name" (e.g. `ros2jazzy` from @foxglove/rosmsg-msgs-common). */
  base?: Readonly<Record<string, MessageDefinition>>;
  /** .msg files parsed in ROS 2 mode; relative type names resolve within the file's package. */
  msgFiles?: readonly MsgFile[];
};

/**
 * Every message type the graph knows: definitions, full ros2msg text for bags, CDR
 * (de)serialization with cached MessageWriter/MessageReader per type, validation and zero-valued
 * default messages. Pure: it takes definitions and .msg texts, never touches the file system
 * (loadMsgFiles.ts is the fs adapter).
 */
export class MessageRegistry {
  /** Internal name ("pkg/Name") -> definition with complex field types as internal names. */
  readonly #defs = new Map<string, MessageDefinition>();
  /** Original .msg text where known (our files), keyed by internal name. */
  readonly #texts = new Map<string, string>();
  readonly #writer: CdrMessageWriter;
  readonly #readers = new Map<string, MessageReader>();
  readonly #deps = new Map<string, string[]>();
  readonly #validator: MessageValidator;

  constructor(options: MessageRegistryOptions = {}) {
    for (const [name, def] of Object.entries(options.base ?? {})) {
      this.#defs.set(name, { ...def, name });
    }
    for (const file of options.msgFiles ?? []) this.#addMsgFile(file);
    for (const name of this.#defs.keys()) this.#checkResolvable(name);
    this.#validator = new MessageValidator((n) => this.#lookup(n));
    this.#writer = new CdrMessageWriter((n) => this.#lookup(n));
  }

  /** All definitions, keyed "pkg/msg/Name" (field types inside use rosmsg's "pkg/Name" form). */
  definitions(): Map<string, MessageDefinition> {
    const out = new Map<string, MessageDefinition>();
    for (const [name, def] of this.#defs) out.set(toRosTypeName(name), def);
    return out;
  }

  /** Type names "pkg/msg/Name", sorted. */
  typeNames(): string[] {
    return [...this.#defs.keys()].map(toRosTypeName).sort();
  }

  has(typeName: string): boolean {
    try {
      return this.#defs.has(toInternalTypeName(typeName));
    } catch {
      return false;
    }
  }

  /** The definition of one type; throws naming the type when unknown. */
  definition(typeName: string): MessageDefinition {
    return this.#lookup(toInternalTypeName(typeName));
  }

  /** Transitive complex dependencies, breadth first in field order, each once ("pkg/msg/Name"). */
  dependencies(typeName: string): string[] {
    return this.#dependencies(toInternalTypeName(typeName)).map(toRosTypeName);
  }

  /**
   * The type's complete definition in rosbag2's `ros2msg` encoding: its .msg text, then each
   * dependency after a line of 80 '=' and "MSG: pkg/Name". Order and naming follow rosbag2_cpp
   * LocalMessageDefinitionSource::get_full_text (ros2/rosbag2, rosbag2_cpp/src/rosbag2_cpp/
   * message_definitions/local_message_definition_source.cpp): depth first, each type's
   * dependencies in sorted order, each dependency once, named as written in the field type
   * ("pkg/Name", relative names prefixed with the package). The talker fixture bag uses the same
   * names. Original file text (with comments) is used for our .msg files; types from
   * @foxglove/rosmsg-msgs-common are re-stringified (no comments).
   */
  ros2msgText(typeName: string): string {
    const internal = this.#known(typeName);
    const seen = new Set<string>();
    const deps: Array<{ name: string; text: string }> = [];
    const visit = (current: string, depth: number): void => {
      if (depth > 64) throw new Error(`${toRosTypeName(internal)}: message definitions nest deeper than 64 levels`);
      const direct = [...new Set(this.#lookup(current).definitions.map(dependencyOf).filter((d): d is string => d !== undefined))].sort();
      for (const dep of direct) {
        if (seen.has(dep)) continue;
        seen.add(dep);
        deps.push({ name: dep, text: this.#textOf(dep) });
        visit(dep, depth + 1);
      }
    };
    visit(internal, 0);
    return joinRos2MsgText(this.#textOf(internal), deps);
  }

  /**
   * Learns `typeName` (and the dependencies it brings) from a full ros2msg text as rosbag2 stores
   * it in a bag (the type's fields, then "MSG: pkg/Name" sections), so a bag of types this
   * registry does not know (e.g. rosbag2's test_msgs/msg/BasicTypes) can be published and
   * decoded. Types already known keep their definition. Returns the type names added; throws
   * naming the type when the text does not parse or leaves a field type unresolved (nothing is
   * added then).
   */
  addRos2MsgText(typeName: string, text: string): string[] {
    const root = toInternalTypeName(typeName);
    if (this.#defs.has(root)) return [];
    if (text.trim() === "") throw new Error(`unknown message type "${toRosTypeName(root)}" and no schema to learn it from`);
    let parsed: MessageDefinition[];
    try {
      parsed = parse(text, { ros2: true });
    } catch (error) {
      throw new Error(`cannot parse the schema of ${toRosTypeName(root)}: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (parsed.length === 0) throw new Error(`the schema of ${toRosTypeName(root)} has no definition`);
    const pkg = packageOf(root);
    const added: string[] = [];
    try {
      for (const [i, def] of parsed.entries()) {
        // A dependency section without a valid "MSG: pkg/Name" line throws here (found by test/fuzz/bagInputs.fuzz.test.ts).
        const internal = i === 0 ? root : toInternalTypeName(def.name ?? "");
        if (this.#defs.has(internal)) continue;
        const definitions = def.definitions.map((f) => (f.isComplex === true ? { ...f, type: resolveComplex(f.type, pkg) } : f));
        this.#defs.set(internal, { name: internal, definitions });
        added.push(internal);
      }
      for (const name of added) this.#checkResolvable(name);
      // Every dependency, builtin time types included (a `time` field needs builtin_interfaces/Time
      // to serialize; found by test/fuzz/bagInputs.fuzz.test.ts).
      for (const name of added) this.#dependencies(name);
    } catch (error) {
      for (const name of added) {
        this.#defs.delete(name);
        this.#deps.delete(name);
      }
      throw new Error(`the schema of ${toRosTypeName(root)} is invalid: ${error instanceof Error ? error.message : String(error)}`);
    }
    return added.map(toRosTypeName);
  }

  /** Throws MessageValidationError ("sensor_msgs/msg/Image.data: expected uint8[] ..."). */
  validate(typeName: string, message: unknown): void {
    this.#validator.validate(this.#known(typeName), message);
  }

  /**
   * CDR bytes (with the 4-byte encapsulation header) as ROS 2 puts them on the wire and in bags.
   * Written by CdrMessageWriter (correct UTF-8 strings); read back by rosmsg2-serialization.
   */
  serialize(typeName: string, message: unknown): Uint8Array {
    return this.#writer.write(this.#known(typeName), message);
  }

  deserialize<T = Record<string, unknown>>(typeName: string, bytes: ArrayBufferView): T {
    const internal = this.#known(typeName);
    let reader = this.#readers.get(internal);
    if (reader === undefined) {
      reader = new MessageReader(this.#closure(internal));
      this.#readers.set(internal, reader);
    }
    try {
      return reader.readMessage<T>(bytes);
    } catch (err) {
      // Truncated or corrupt bytes: one error type naming the type (test/fuzz/cdr.fuzz.test.ts).
      throw new MessageDecodeError(toRosTypeName(internal), bytes.byteLength, err instanceof Error ? err.message : String(err));
    }
  }

  /** A fresh message with all fields zero/empty (or the .msg default value). */
  defaultMessage<T = Record<string, unknown>>(typeName: string): T {
    return defaultMessage(this.#known(typeName), (n) => this.#lookup(n)) as T;
  }

  #known(typeName: string): string {
    const internal = toInternalTypeName(typeName);
    this.#lookup(internal);
    return internal;
  }

  #lookup(internal: string): MessageDefinition {
    const def = this.#defs.get(internal);
    if (def === undefined) {
      throw new Error(`unknown message type "${toRosTypeName(internal)}": not in @foxglove/rosmsg-msgs-common (ros2jazzy) nor in msgs/`);
    }
    return def;
  }

  #addMsgFile(file: MsgFile): void {
    const internal = toInternalTypeName(file.typeName);
    if (this.#defs.has(internal)) throw new Error(`message type ${file.typeName} is defined twice`);
    const pkg = packageOf(internal);
    let parsed: MessageDefinition[];
    try {
      parsed = parse(file.text, { ros2: true, skipTypeFixup: true });
    } catch (error) {
      throw new Error(`cannot parse ${file.typeName}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const root = parsed[0];
    if (parsed.length !== 1 || root === undefined) throw new Error(`${file.typeName}: expected one definition, found ${parsed.length}`);
    const definitions = root.definitions.map((f) => (f.isComplex === true ? { ...f, type: resolveComplex(f.type, pkg) } : f));
    this.#defs.set(internal, { name: internal, definitions });
    this.#texts.set(internal, file.text);
  }

  #checkResolvable(internal: string): void {
    for (const f of this.#lookup(internal).definitions) {
      if (f.isConstant === true) continue;
      if (f.isComplex === true && !this.#defs.has(f.type)) {
        throw new Error(`${toRosTypeName(internal)}.${f.name}: unknown field type ${f.type}`);
      }
      if (f.isComplex !== true && !isPrimitive(f.type)) {
        throw new Error(`${toRosTypeName(internal)}.${f.name}: unknown primitive type ${f.type}`);
      }
    }
  }

  #dependencies(internal: string): string[] {
    const cached = this.#deps.get(internal);
    if (cached !== undefined) return cached;
    const seen = new Set<string>([internal]);
    const order: string[] = [];
    const queue = [internal];
    for (let i = 0; i < queue.length; i++) {
      const current = queue[i] ?? "";
      for (const f of this.#lookup(current).definitions) {
        const dep = dependencyOf(f);
        if (dep !== undefined && !seen.has(dep)) {
          seen.add(dep);
          order.push(dep);
          queue.push(dep);
        }
      }
    }
    this.#deps.set(internal, order);
    return order;
  }

  /** Root first, then every complex dependency (what MessageReader/Writer need). */
  #closure(internal: string): MessageDefinition[] {
    // Constants are not serialized; dropping them also lets constant-only types (e.g.
    // rcl_interfaces/ParameterType) serialize as an empty struct (one uint8, as rosidl does).
    const root = this.#lookup(internal);
    const rootData: MessageDefinition = { name: root.name, definitions: root.definitions.filter((f) => f.isConstant !== true) };
    return [rootData, ...this.#dependencies(internal).filter((d) => !TIME_TYPE_NAMES.has(d)).map((d) => this.#lookup(d))];
  }

  #textOf(internal: string): string {
    return this.#texts.get(internal) ?? stringifyDefinition(this.#lookup(internal));
  }
}

const TIME_TYPE_NAMES = new Set(TIME_TYPES.values());

function dependencyOf(field: MessageDefinitionField): string | undefined {
  if (field.isConstant === true) return undefined;
  if (field.isComplex === true) return field.type;
  return TIME_TYPES.get(field.type);
}

/** "Point2D" in package vision_msgs -> "vision_msgs/Point2D"; "geometry_msgs/msg/Pose" -> "geometry_msgs/Pose". */
function resolveComplex(type: string, pkg: string): string {
  if (type.includes("/")) return toInternalTypeName(type);
  return `${pkg}/${type}`;
}
