/**
 * Regression comparison of two streams of decoded messages (recorded outputs vs outputs of a
 * replay): per topic, message i of one is compared with message i of the other, field by field,
 * numbers within a tolerance (|a - b| <= abs + rel * |expected|; NaN equals NaN). Reports the
 * first differences with topic, index, field path, expected and actual.
 */

export type StreamMessage = { topic: string; value: unknown };

export type CompareOptions = {
  /** Absolute numeric tolerance; default 1e-9. */
  absTolerance?: number;
  /** Relative numeric tolerance (of |expected|); default 0. */
  relTolerance?: number;
  /** Absolute tolerance per field path suffix, e.g. {"twist.linear.x": 0.01}. */
  fieldTolerance?: Record<string, number>;
  /** Field paths (suffixes) to skip, e.g. ["header.stamp"]. */
  ignoreFields?: readonly string[];
  /** Stop after this many differences; default 20. */
  maxDifferences?: number;
  /** Only these topics; default every topic seen in either stream. */
  topics?: readonly string[];
};

export type DifferenceKind = "value" | "type" | "length" | "missing_field" | "extra_field" | "missing_message" | "extra_message";

export type MessageDifference = {
  kind: DifferenceKind;
  topic: string;
  /** Index of the message within its topic (0-based). */
  index: number;
  /** Field path, e.g. "detections[2].bbox.center.position.x"; "" for the whole message. */
  path: string;
  expected: unknown;
  actual: unknown;
};

export type CompareResult = {
  equal: boolean;
  differences: MessageDifference[];
  /** Messages per topic in each stream. */
  counts: Map<string, { expected: number; actual: number }>;
};

type Ctx = { abs: number; rel: number; fieldTol: [string, number][]; ignore: readonly string[]; out: MessageDifference[]; max: number };

function endsWithPath(path: string, suffix: string): boolean {
  return path === suffix || path.endsWith(`.${suffix}`) || path.endsWith(`]${suffix}`) || path.endsWith(`].${suffix}`);
}

function isNumeric(v: unknown): v is number | bigint {
  return typeof v === "number" || typeof v === "bigint";
}

function isArrayLike(v: unknown): v is ArrayLike<unknown> {
  return Array.isArray(v) || (ArrayBuffer.isView(v) && !(v instanceof DataView));
}

function compareValues(e: unknown, a: unknown, path: string, topic: string, index: number, ctx: Ctx): void {
  if (ctx.out.length >= ctx.max) return;
  if (ctx.ignore.some((p) => endsWithPath(path, p))) return;
  const push = (kind: DifferenceKind, expected: unknown, actual: unknown, p = path): void => {
    if (ctx.out.length < ctx.max) ctx.out.push({ kind, topic, index, path: p, expected, actual });
  };
  if (isNumeric(e) && isNumeric(a)) {
    if (typeof e === "bigint" && typeof a === "bigint" && e === a) return;
    const en = Number(e);
    const an = Number(a);
    if (Number.isNaN(en) && Number.isNaN(an)) return;
    const tol = ctx.fieldTol.find(([p]) => endsWithPath(path, p))?.[1] ?? ctx.abs + ctx.rel * Math.abs(en);
    if (en === an || Math.abs(en - an) <= tol) return;
    push("value", e, a);
    return;
  }
  if (isArrayLike(e) && isArrayLike(a)) {
    if (e.length !== a.length) {
      push("length", e.length, a.length, `${path}.length`);
      return;
    }
    for (let i = 0; i < e.length && ctx.out.length < ctx.max; i++) compareValues(e[i], a[i], `${path}[${i}]`, topic, index, ctx);
    return;
  }
  if (typeof e === "object" && e !== null && typeof a === "object" && a !== null && !isArrayLike(e) && !isArrayLike(a)) {
    const eo = e as Record<string, unknown>;
    const ao = a as Record<string, unknown>;
    const join = (k: string): string => (path === "" ? k : `${path}.${k}`);
    for (const k of Object.keys(eo)) {
      if (!(k in ao)) push("missing_field", eo[k], undefined, join(k));
      else compareValues(eo[k], ao[k], join(k), topic, index, ctx);
    }
    for (const k of Object.keys(ao)) if (!(k in eo)) push("extra_field", undefined, ao[k], join(k));
    return;
  }
  if (typeof e !== typeof a || isArrayLike(e) !== isArrayLike(a) || (e === null) !== (a === null)) {
    push("type", e, a);
    return;
  }
  if (e !== a) push("value", e, a);
}

/** Compares two message streams; both are read to the end (per-topic queues hold any skew). */
export async function compareMessageStreams(
  expected: AsyncIterable<StreamMessage> | Iterable<StreamMessage>,
  actual: AsyncIterable<StreamMessage> | Iterable<StreamMessage>,
  options: CompareOptions = {},
): Promise<CompareResult> {
  const abs = options.absTolerance ?? 1e-9;
  const rel = options.relTolerance ?? 0;
  if (!(abs >= 0) || !(rel >= 0)) throw new RangeError(`absTolerance=${abs}, relTolerance=${rel}: expected >= 0`);
  const ctx: Ctx = {
    abs,
    rel,
    fieldTol: Object.entries(options.fieldTolerance ?? {}),
    ignore: options.ignoreFields ?? [],
    out: [],
    max: options.maxDifferences ?? 20,
  };
  const wanted = options.topics === undefined ? undefined : new Set(options.topics);
  const counts = new Map<string, { expected: number; actual: number }>();
  const queues = new Map<string, { e: unknown[]; a: unknown[]; compared: number }>();
  const q = (topic: string): { e: unknown[]; a: unknown[]; compared: number } => {
    let s = queues.get(topic);
    if (s === undefined) {
      s = { e: [], a: [], compared: 0 };
      queues.set(topic, s);
      counts.set(topic, { expected: 0, actual: 0 });
    }
    return s;
  };
  const drain = (topic: string): void => {
    const s = q(topic);
    while (s.e.length > 0 && s.a.length > 0) compareValues(s.e.shift(), s.a.shift(), "", topic, s.compared++, ctx);
  };
  const ei = toAsync(expected)[Symbol.asyncIterator]();
  const ai = toAsync(actual)[Symbol.asyncIterator]();
  let eDone = false;
  let aDone = false;
  // Alternate between the streams so that per-topic queues stay short when they are aligned.
  while (!eDone || !aDone) {
    if (!eDone) {
      const r = await ei.next();
      if (r.done === true) eDone = true;
      else if (wanted === undefined || wanted.has(r.value.topic)) {
        q(r.value.topic).e.push(r.value.value);
        counts.get(r.value.topic)!.expected++;
        drain(r.value.topic);
      }
    }
    if (!aDone) {
      const r = await ai.next();
      if (r.done === true) aDone = true;
      else if (wanted === undefined || wanted.has(r.value.topic)) {
        q(r.value.topic).a.push(r.value.value);
        counts.get(r.value.topic)!.actual++;
        drain(r.value.topic);
      }
    }
  }
  for (const [topic, s] of queues) {
    s.e.forEach((v, i) => ctx.out.length < ctx.max && ctx.out.push({ kind: "missing_message", topic, index: s.compared + i, path: "", expected: v, actual: undefined }));
    s.a.forEach((v, i) => ctx.out.length < ctx.max && ctx.out.push({ kind: "extra_message", topic, index: s.compared + i, path: "", expected: undefined, actual: v }));
  }
  for (const t of wanted ?? []) q(t);
  return { equal: ctx.out.length === 0, differences: ctx.out, counts };
}

async function* toAsync<T>(it: AsyncIterable<T> | Iterable<T>): AsyncGenerator<T> {
  for await (const x of it) yield x;
}

function show(v: unknown): string {
  if (typeof v === "bigint") return `${v.toString()}n`;
  if (typeof v === "number" || typeof v === "boolean" || v === undefined || v === null) return String(v);
  if (typeof v === "string") return JSON.stringify(v);
  const s = JSON.stringify(v, (_k, x: unknown) => (typeof x === "bigint" ? x.toString() : ArrayBuffer.isView(x) ? `<${x.byteLength} bytes>` : x));
  return s.length > 120 ? `${s.slice(0, 117)}...` : s;
}

/** One line per difference, e.g. `/cmd_vel #12 twist.linear.x: expected 1, actual 1.2`. */
export function formatDifferences(result: CompareResult): string {
  const lines = result.differences.map((d) => {
    const where = `${d.topic} #${d.index}${d.path === "" ? "" : ` ${d.path}`}`;
    switch (d.kind) {
      case "missing_message":
        return `${where}: expected a message, the actual stream has none`;
      case "extra_message":
        return `${where}: unexpected extra message ${show(d.actual)}`;
      case "missing_field":
        return `${where}: field missing in actual (expected ${show(d.expected)})`;
      case "extra_field":
        return `${where}: extra field in actual (${show(d.actual)})`;
      case "length":
      case "type":
      case "value":
        return `${where}: expected ${show(d.expected)}, actual ${show(d.actual)}`;
    }
  });
  const counts = [...result.counts].map(([t, c]) => `${t} ${c.expected}/${c.actual}`).join(", ");
  return `${lines.join("\n")}\nmessages per topic (expected/actual): ${counts}`;
}
