/**
 * The list's filter expression over any row type: the grammar of expr.ts (inspect's viewer:
 * `misses >= 2 and precision < 1 and model == "base"`) with the fields passed in, so an
 * environment's list (envs/<env>/page/) brings its own fields and the parser stays
 * environment-free. No eval (the CSP forbids it; trace text never runs); errors name the
 * position. expr.ts compiles GeoGuesser's list fields with it.
 */

type Value = string | number | boolean | null;

export interface RowField<R> {
  name: string;
  type: "number" | "text" | "list" | "bool";
  help: string;
  get(r: R): Value | string[];
}

export class FieldExprError extends Error {
  constructor(
    message: string,
    readonly at: number,
  ) {
    super(message);
  }
}

type Tok = { t: "num" | "str" | "word" | "op" | "(" | ")"; v: string; at: number };

const OP_ALIASES: Record<string, string> = { "=": "==", "≥": ">=", "≤": "<=", "≠": "!=" };

function tokenize(s: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === "(" || c === ")") {
      out.push({ t: c, v: c, at: i++ });
      continue;
    }
    if (c === '"' || c === "'") {
      const j = s.indexOf(c, i + 1);
      if (j < 0) throw new FieldExprError(`unclosed quote: expected a closing ${c}`, i);
      out.push({ t: "str", v: s.slice(i + 1, j), at: i });
      i = j + 1;
      continue;
    }
    const op = /^(==|!=|>=|<=|>|<|~|=|≥|≤|≠)/.exec(s.slice(i));
    if (op) {
      out.push({ t: "op", v: OP_ALIASES[op[1]] ?? op[1], at: i });
      i += op[1].length;
      continue;
    }
    const num = /^-?\d+(\.\d+)?(e-?\d+)?/i.exec(s.slice(i));
    if (num) {
      out.push({ t: "num", v: num[0], at: i });
      i += num[0].length;
      continue;
    }
    const w = /^[^\s()=!<>~"'≥≤≠]+/.exec(s.slice(i));
    if (!w) throw new FieldExprError(`unexpected ${JSON.stringify(c)}`, i);
    out.push({ t: "word", v: w[0], at: i });
    i += w[0].length;
  }
  return out;
}

const lower = (v: Value | string[]) => (typeof v === "string" ? v.toLowerCase() : v);

function compare(op: string, a: Value | string[], b: Value): boolean {
  if (Array.isArray(a)) {
    const hit = a.some((x) => compare(op === "!=" ? "==" : op, x, b));
    return op === "!=" ? !hit : hit;
  }
  if (op === "~") return a !== null && b !== null && String(a).toLowerCase().includes(String(b).toLowerCase());
  if (op === "==") return lower(a) === lower(b);
  if (op === "!=") return lower(a) !== lower(b);
  if (a === null || b === null) return false;
  if (op === ">") return a > b;
  if (op === ">=") return a >= b;
  if (op === "<") return a < b;
  return a <= b;
}

/** Compiles an expression over `fields`; "" matches everything. Throws FieldExprError with the position. */
export function compileFieldExpr<R>(src: string, fields: readonly RowField<R>[]): (r: R) => boolean {
  const toks = tokenize(src);
  if (!toks.length) return () => true;
  const names = fields.map((f) => f.name).join(", ");
  let p = 0;
  const peek = () => toks[p];
  const end = () => p >= toks.length;
  const isWord = (w: string) => !end() && peek().t === "word" && peek().v.toLowerCase() === w;
  const fail = (what: string): never => {
    const t = toks[p];
    throw new FieldExprError(t ? `expected ${what}, got ${JSON.stringify(t.v)}` : `expected ${what} at the end`, t ? t.at : src.length);
  };
  type P = (r: R) => boolean;

  function value(): Value {
    const t = peek();
    if (!t || (t.t !== "num" && t.t !== "str" && t.t !== "word")) return fail('a value (a number, "text", true, false or null)');
    p++;
    if (t.t === "num") return Number(t.v);
    if (t.t === "str") return t.v;
    const w = t.v.toLowerCase();
    return w === "true" ? true : w === "false" ? false : w === "null" ? null : t.v;
  }
  function unary(): P {
    if (isWord("not")) {
      p++;
      const inner = unary();
      return (r) => !inner(r);
    }
    const t = peek();
    if (!t) return fail("a field, not or (");
    if (t.t === "(") {
      p++;
      const inner = or();
      if (end() || peek().t !== ")") fail(")");
      p++;
      return inner;
    }
    if (t.t !== "word") return fail(`a field (${names})`);
    const field = fields.find((f) => f.name === t.v.toLowerCase());
    if (!field) throw new FieldExprError(`unknown field ${JSON.stringify(t.v)}: the fields are ${names}`, t.at);
    p++;
    if (end() || peek().t !== "op")
      return (r) => {
        const v = field.get(r);
        return Array.isArray(v) ? v.length > 0 : v !== null && v !== false && v !== "" && v !== 0;
      };
    const op = toks[p++];
    const at = end() ? src.length : peek().at;
    const v = value();
    if (field.type === "number" && v !== null && typeof v !== "number")
      throw new FieldExprError(`${field.name} is a number: expected a number or null, got ${JSON.stringify(v)}`, at);
    if (field.type !== "number" && op.v !== "==" && op.v !== "!=" && op.v !== "~")
      throw new FieldExprError(`${field.name} is ${field.type === "bool" ? "true or false" : "text"}: use ==, != or ~ (contains)`, op.at);
    return (r) => compare(op.v, field.get(r), v);
  }
  function and(): P {
    let left = unary();
    while (isWord("and")) {
      p++;
      const l = left;
      const right = unary();
      left = (r) => l(r) && right(r);
    }
    return left;
  }
  function or(): P {
    let left = and();
    while (isWord("or")) {
      p++;
      const l = left;
      const right = and();
      left = (r) => l(r) || right(r);
    }
    return left;
  }
  const pred = or();
  if (!end()) fail("and, or or the end");
  return pred;
}
