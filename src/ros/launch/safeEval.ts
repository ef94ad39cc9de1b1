/**
 * A safe subset of `$(eval ...)` (ros2/launch PythonExpression): the expression is parsed, never
 * executed as code. Supported: string literals ('a' or "a"), numbers, True/False/None, comparison
 * (== != < <= > >=), `and`, `or`, `not`, parentheses. Anything else throws a RangeError naming the
 * token, so a launch file that needs more fails clearly instead of running arbitrary Python.
 * The result is formatted as Python's str() would (True -> "True").
 */
type Value = string | number | boolean | null;
type Token = { kind: "str"; value: string } | { kind: "num"; value: number } | { kind: "op"; value: string } | { kind: "word"; value: string };

function tokenize(expr: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < expr.length) {
    const c = expr[i] as string;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === "'" || c === '"') {
      const end = expr.indexOf(c, i + 1);
      if (end < 0) throw new RangeError(`$(eval): unterminated string starting at column ${i + 1} in "${expr}"`);
      tokens.push({ kind: "str", value: expr.slice(i + 1, end) });
      i = end + 1;
      continue;
    }
    const num = /^(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/.exec(expr.slice(i));
    if (num !== null) {
      tokens.push({ kind: "num", value: Number(num[0]) });
      i += num[0].length;
      continue;
    }
    const op = /^(?:==|!=|<=|>=|<|>|\(|\))/.exec(expr.slice(i));
    if (op !== null) {
      tokens.push({ kind: "op", value: op[0] });
      i += op[0].length;
      continue;
    }
    const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(expr.slice(i));
    if (word !== null) {
      tokens.push({ kind: "word", value: word[0] });
      i += word[0].length;
      continue;
    }
    throw new RangeError(`$(eval): unsupported character "${c}" in "${expr}" (supported: literals, == != < <= > >=, and, or, not, parentheses)`);
  }
  return tokens;
}

const truthy = (v: Value): boolean => v !== null && v !== false && v !== 0 && v !== "";

/** Evaluates `expr` (see the file comment) and returns Python's str() of the result. */
export function safeEval(expr: string): string {
  const tokens = tokenize(expr);
  let pos = 0;
  const peek = (): Token | undefined => tokens[pos];
  const isWord = (t: Token | undefined, w: string): boolean => t?.kind === "word" && t.value === w;

  const primary = (): Value => {
    const t = tokens[pos++];
    if (t === undefined) throw new RangeError(`$(eval): unexpected end of "${expr}"`);
    switch (t.kind) {
      case "str":
      case "num":
        return t.value;
      case "op":
        if (t.value === "(") {
          const v = orExpr();
          const close = tokens[pos++];
          if (close?.kind !== "op" || close.value !== ")") throw new RangeError(`$(eval): missing ")" in "${expr}"`);
          return v;
        }
        throw new RangeError(`$(eval): unexpected "${t.value}" in "${expr}"`);
      case "word":
        if (t.value === "True") return true;
        if (t.value === "False") return false;
        if (t.value === "None") return null;
        throw new RangeError(`$(eval): name "${t.value}" is not supported (only literals; quote strings, e.g. '$(var x)' == 'y') in "${expr}"`);
    }
  };
  const comparison = (): Value => {
    const left = primary();
    const t = peek();
    if (t?.kind === "op" && ["==", "!=", "<", "<=", ">", ">="].includes(t.value)) {
      pos++;
      return compare(t.value, left, primary(), expr);
    }
    return left;
  };
  const notExpr = (): Value => {
    if (isWord(peek(), "not")) {
      pos++;
      return !truthy(notExpr());
    }
    return comparison();
  };
  const andExpr = (): Value => {
    let v = notExpr();
    while (isWord(peek(), "and")) {
      pos++;
      const r = notExpr();
      v = truthy(v) ? r : v;
    }
    return v;
  };
  const orExpr = (): Value => {
    let v = andExpr();
    while (isWord(peek(), "or")) {
      pos++;
      const r = andExpr();
      v = truthy(v) ? v : r;
    }
    return v;
  };
  const result = orExpr();
  if (pos !== tokens.length) throw new RangeError(`$(eval): unexpected "${String(tokens[pos]?.value)}" in "${expr}"`);
  return pythonStr(result);
}

/** `left op right` for one of == != < <= > >=; ordering needs two strings or two numbers, as in Python. */
function compare(op: string, left: Value, right: Value, expr: string): boolean {
  switch (op) {
    case "==":
      return left === right;
    case "!=":
      return left !== right;
    default: {
      if (left === null || right === null || typeof left !== typeof right) {
        throw new RangeError(`$(eval): cannot order ${JSON.stringify(left)} and ${JSON.stringify(right)} in "${expr}"`);
      }
      const l = left as string | number;
      const r = right as string | number;
      return op === "<" ? l < r : op === "<=" ? l <= r : op === ">" ? l > r : l >= r;
    }
  }
}

/** Python's str() of a value: True, False, None, the string itself, the number. */
function pythonStr(v: Value): string {
  if (v === true) return "True";
  if (v === false) return "False";
  if (v === null) return "None";
  return String(v);
}
