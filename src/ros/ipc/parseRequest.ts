import type { Request } from "./protocol";

/** A request frame whose shape is wrong; the server answers it and drops the client. */
export class BadRequestError extends RangeError {
  override readonly name = "BadRequestError";
  /** The request id if the frame had a usable one, else -1. */
  constructor(
    message: string,
    readonly id: number,
  ) {
    super(message);
  }
}

/** The fields each op carries besides `id` and `op`, with their JSON types. */
const OP_FIELDS = {
  info: {},
  listNodes: {},
  listTopics: {},
  stats: {},
  topicInfo: { topic: "string" },
  subscribe: { topic: "string" },
  unsubscribe: { subscriptionId: "integer" },
  getParam: { node: "string", name: "string" },
  listParams: { node: "string" },
  setParam: { node: "string", name: "string", value: "string" },
  registerType: { typeName: "string", schemaText: "string" },
} as const satisfies Record<Request["op"], Record<string, "string" | "integer">>;

const hasOwn = (o: object, key: string): boolean => Object.prototype.hasOwnProperty.call(o, key);

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "string" ? JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value) : typeof value;
}

/**
 * Checks a JSON request frame against the protocol (protocol.ts `Request`): an object with an
 * integer `id`, a known `op` and exactly that op's fields with their types, checked as own
 * properties (a `constructor` or `__proto__` key is an unknown field, not an inherited one).
 * Throws BadRequestError naming the field and what was expected.
 */
export function parseRequest(value: unknown): Request {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new BadRequestError(`introspection request is ${describe(value)}, expected an object {id, op, ...}`, -1);
  }
  const v = value as Record<string, unknown>;
  const id = hasOwn(v, "id") && Number.isSafeInteger(v.id) && (v.id as number) >= 0 ? (v.id as number) : -1;
  if (id < 0) throw new BadRequestError(`introspection request id=${describe(v.id)}, expected an integer >= 0`, -1);
  const op = hasOwn(v, "op") ? v.op : undefined;
  if (typeof op !== "string" || !hasOwn(OP_FIELDS, op)) {
    throw new BadRequestError(`introspection request op=${describe(op)}, expected one of ${Object.keys(OP_FIELDS).join(", ")}`, id);
  }
  const fields = OP_FIELDS[op as Request["op"]] as Record<string, "string" | "integer">;
  for (const key of Object.keys(v)) {
    if (key !== "id" && key !== "op" && !hasOwn(fields, key)) throw new BadRequestError(`introspection request ${op}: unknown field "${key}"`, id);
  }
  for (const [key, type] of Object.entries(fields)) {
    const x = hasOwn(v, key) ? v[key] : undefined;
    const ok = type === "string" ? typeof x === "string" : Number.isSafeInteger(x);
    if (!ok) throw new BadRequestError(`introspection request ${op}.${key}=${describe(x)}, expected ${type === "string" ? "a string" : "an integer"}`, id);
  }
  return v as Request;
}
