/**
 * The list's filter expression, as inspect's log viewer has one:
 * `km > 750 and turns >= 8 and model == "base"`. A small recursive-descent
 * parser (no eval: the page's CSP forbids it, and trace text must never run)
 * compiling to a predicate over list rows. Errors name the position and what
 * was expected, so the page can show them where they were typed.
 *
 *   expr  := or
 *   or    := and ("or" and)*
 *   and   := unary ("and" unary)*
 *   unary := "not" unary | "(" expr ")" | field op value | field
 *   op    := == != > >= < <= ~      (~: contains, case-insensitive;
 *            ≥ ≤ ≠ as typed or pasted mean >= <= !=)
 *   value := number | "text" | 'text' | true | false | null | word
 */
import { isErrored, type ListRow } from "../../list-row.ts";

type Value = string | number | boolean | null;

/** What a field may read beyond the row: the episode's words (the list's search text). */
export interface ExprContext {
  words?(r: ListRow): string;
}

export interface Field {
  name: string;
  type: "number" | "text" | "list" | "bool";
  help: string;
  get(r: ListRow, ctx: ExprContext): Value | string[];
}

/** Tokens in + out; null when neither was recorded. */
export function totalTokens(r: Pick<ListRow, "tokensIn" | "tokensOut">): number | null {
  return r.tokensIn === null && r.tokensOut === null ? null : (r.tokensIn ?? 0) + (r.tokensOut ?? 0);
}

export const FIELDS: Field[] = [
  { name: "id", type: "text", help: "episode id", get: (r) => r.id },
  { name: "model", type: "text", help: "model_name (the arm)", get: (r) => r.arm },
  { name: "arm", type: "text", help: "same as model", get: (r) => r.arm },
  { name: "split", type: "text", help: "task split", get: (r) => r.split },
  { name: "task", type: "number", help: "task index", get: (r) => r.task },
  { name: "attempt", type: "number", help: "attempt number (task.sample)", get: (r) => r.sample },
  { name: "country", type: "text", help: "the task's country", get: (r) => r.country },
  { name: "verdict", type: "text", help: "outcome verdict", get: (r) => r.verdict },
  { name: "reward", type: "number", help: "geoeval's recomputed reward", get: (r) => (isErrored(r) ? null : r.score) },
  { name: "env", type: "number", help: "the environment's stored reward (null: unscored)", get: (r) => r.env },
  { name: "env_reward", type: "number", help: "same as env", get: (r) => r.env },
  { name: "km", type: "number", help: "guess distance", get: (r) => r.km },
  { name: "turns", type: "number", help: "turns used", get: (r) => r.turns },
  { name: "tokens", type: "number", help: "tokens in + out over the episode", get: (r) => totalTokens(r) },
  { name: "tokens_in", type: "number", help: "input tokens over the episode", get: (r) => r.tokensIn },
  { name: "tokens_out", type: "number", help: "output tokens over the episode", get: (r) => r.tokensOut },
  { name: "cost", type: "number", help: "action cost (outcome.action_cost)", get: (r) => r.cost },
  { name: "latency", type: "number", help: "model latency over the episode, seconds", get: (r) => r.latency },
  { name: "temperature", type: "number", help: "the model's sampling temperature", get: (r) => r.temperature },
  { name: "max_tokens", type: "number", help: "the model's max_tokens setting", get: (r) => r.maxTokens },
  { name: "source", type: "text", help: "the record's file:line", get: (r) => r.source },
  { name: "counted", type: "bool", help: "counted by geoeval's report (has an env reward)", get: (r) => r.env !== null },
  { name: "flags", type: "list", help: "status flags (== matches one)", get: (r) => r.flags },
  { name: "episode", type: "text", help: "same as id (the list's episode column)", get: (r) => r.id },
  { name: "status", type: "list", help: "same as flags (the status filter's values)", get: (r) => r.flags },
  {
    name: "reply",
    type: "text",
    help: "the episode's words: replies, reasoning, prompts, feedback, actions (~ contains)",
    get: (r, ctx) => (ctx.words ? ctx.words(r) : null),
  },
  // Training rollouts (null elsewhere): the GRPO numbers of `georeplay groups`.
  { name: "run", type: "text", help: "training run", get: (r) => r.train?.run ?? null },
  { name: "step", type: "number", help: "training step", get: (r) => r.train?.step ?? null },
  { name: "advantage", type: "number", help: "GRPO advantage in its group (scale_rewards group)", get: (r) => r.train?.advantage ?? null },
  { name: "zero_std", type: "bool", help: "its group has zero spread (no learning signal)", get: (r) => r.train?.zeroStd ?? null },
  { name: "zero_spread", type: "bool", help: "same as zero_std (the list's zero spread column)", get: (r) => r.train?.zeroStd ?? null },
  {
    name: "identical",
    type: "bool",
    help: "a sibling of its group played the byte-identical game (same actions, same views)",
    get: (r) => r.train?.identical ?? null,
  },
  { name: "group_mean", type: "number", help: "its group's mean reward", get: (r) => r.train?.groupMean ?? null },
  { name: "group_std", type: "number", help: "its group's sample std (null for a group of one)", get: (r) => r.train?.groupStd ?? null },
  { name: "group_size", type: "number", help: "siblings in its group", get: (r) => r.train?.groupSize ?? null },
];

export class ExprError extends Error {
  constructor(
    message: string,
    readonly at: number,
  ) {
    super(message);
  }
}

type Tok = { t: "num" | "str" | "word" | "op" | "(" | ")"; v: string; at: number };

/** `=` and the signs people type or paste from prose, as the operators they mean. */
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
      if (j < 0) throw new ExprError(`unclosed quote: expected a closing ${c}`, i);
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
    if (!w) throw new ExprError(`unexpected ${JSON.stringify(c)}`, i);
    out.push({ t: "word", v: w[0], at: i });
    i += w[0].length;
  }
  return out;
}

export type Predicate = (r: ListRow) => boolean;

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

/** Compiles an expression; "" matches everything. Throws ExprError with the position. `ctx`: what text fields read. */
export function compileExpr(src: string, ctx: ExprContext = {}): Predicate {
  const toks = tokenize(src);
  if (!toks.length) return () => true;
  let p = 0;
  const peek = () => toks[p];
  const end = () => p >= toks.length;
  const isWord = (w: string) => !end() && peek().t === "word" && peek().v.toLowerCase() === w;
  const fail = (what: string): never => {
    const t = toks[p];
    throw new ExprError(t ? `expected ${what}, got ${JSON.stringify(t.v)}` : `expected ${what} at the end`, t ? t.at : src.length);
  };

  function value(): Value {
    const t = peek();
    if (!t || (t.t !== "num" && t.t !== "str" && t.t !== "word")) return fail('a value (a number, "text", true, false or null)');
    p++;
    if (t.t === "num") return Number(t.v);
    if (t.t === "str") return t.v;
    const w = t.v.toLowerCase();
    return w === "true" ? true : w === "false" ? false : w === "null" ? null : t.v;
  }
  function unary(): Predicate {
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
    if (t.t !== "word") return fail(`a field (${FIELDS.map((f) => f.name).join(", ")})`);
    const field = FIELDS.find((f) => f.name === t.v.toLowerCase());
    if (!field) throw new ExprError(`unknown field ${JSON.stringify(t.v)}: the fields are ${FIELDS.map((f) => f.name).join(", ")}`, t.at);
    p++;
    if (end() || peek().t !== "op")
      return (r) => {
        const v = field.get(r, ctx);
        return Array.isArray(v) ? v.length > 0 : v !== null && v !== false && v !== "" && v !== 0;
      };
    const op = toks[p++];
    const at = end() ? src.length : peek().at;
    const v = value();
    if (field.type === "number" && v !== null && typeof v !== "number")
      throw new ExprError(`${field.name} is a number: expected a number or null, got ${JSON.stringify(v)}`, at);
    if (field.type !== "number" && op.v !== "==" && op.v !== "!=" && op.v !== "~")
      throw new ExprError(`${field.name} is ${field.type === "bool" ? "true or false" : "text"}: use ==, != or ~ (contains)`, op.at);
    return (r) => compare(op.v, field.get(r, ctx), v);
  }
  function and(): Predicate {
    let left = unary();
    while (isWord("and")) {
      p++;
      const l = left;
      const right = unary();
      left = (r) => l(r) && right(r);
    }
    return left;
  }
  function or(): Predicate {
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
