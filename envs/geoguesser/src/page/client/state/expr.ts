/**
 * The list's filter expression, as inspect's log viewer has one:
 * `km > 750 and turns >= 8 and model == "base"`. A small recursive-descent
 * parser (no eval: the page's CSP forbids it, and trace text must never run)
 * compiling to a predicate over list rows. Errors name the position and what
 * was expected, so the page can show them where they were typed. The grammar and
 * parser are field-expr.ts's; this module holds GeoGuesser's list fields.
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
import { compileFieldExpr, type RowField } from "../../../../../../src/page/client/state/field-expr.ts";

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

/** The parser is field-expr.ts's (one grammar for every environment's list); errors are its errors. */
export { FieldExprError as ExprError } from "../../../../../../src/page/client/state/field-expr.ts";

export type Predicate = (r: ListRow) => boolean;

/** Compiles an expression over the list's FIELDS; "" matches everything. Throws ExprError with the position. `ctx`: what text fields read. */
export function compileExpr(src: string, ctx: ExprContext = {}): Predicate {
  return compileFieldExpr(
    src,
    FIELDS.map((f): RowField<ListRow> => ({ name: f.name, type: f.type, help: f.help, get: (r) => f.get(r, ctx) })),
  );
}
