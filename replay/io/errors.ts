/**
 * The one error class georeplay throws for problems a user can act on. It
 * carries a kind and structured problems; it never decides exit codes (the
 * CLI maps kinds to them: drift 1, input 2) and is printed as its message
 * alone, never as a stack.
 */

/** What went wrong: the inputs could not be read or checked, or a view drifted from its recorded hash. */
export type ErrorKind = "input" | "drift";

/** One located problem: where (file, line, field) and what was expected. */
export interface Problem {
  file: string | null;
  line: number | null;
  field: string | null;
  message: string;
}

export class GeoreplayError extends Error {
  readonly kind: ErrorKind;
  readonly problems: Problem[];
  /** Without `problems`, they are read from the message (see problemsOf): every throw site writes the same form. */
  constructor(message: string, kind: ErrorKind = "input", problems?: Problem[]) {
    super(message);
    this.name = "GeoreplayError";
    this.kind = kind;
    this.problems = problems ?? problemsOf(message);
  }
}

/** An error about one file (no line): `file: message`, with the file in its problem. */
export function fileError(file: string, message: string, kind: ErrorKind = "input"): GeoreplayError {
  const text = `${file}: ${message}`;
  return new GeoreplayError(text, kind, [{ file, line: null, field: null, message: text }]);
}

/** `file:line: ` at the start of a message line, then `field: ` when the next words are "expected …". */
const LOCATED = /^\s*(?<file>[^\s:][^:]*?):(?<line>\d+)(?::\d+)?: (?:(?<field>[A-Za-z_][\w.[\]]*): (?=expected\b))?/;
/** `--tasks PATH: `, `--panos PATH: `, `-o PATH: `: the path the user gave for that option. */
const OPTION_PATH = /^(?:--tasks|--panos|--out|-o) (?<file>[^:]+): /;

/**
 * The problems a message names. georeplay's messages have one form: each line
 * about a place in a file starts `file:line: ` (and `field: ` when a field is
 * at fault), each about a path option `--tasks PATH: `. Every located line is
 * one problem; a message with none is one problem without a place.
 */
export function problemsOf(message: string): Problem[] {
  const located: Problem[] = [];
  for (const text of message.split("\n")) {
    const m = LOCATED.exec(text);
    if (m?.groups) located.push({ file: m.groups.file, line: Number(m.groups.line), field: m.groups.field ?? null, message: text.trim() });
  }
  if (located.length) return located;
  const opt = OPTION_PATH.exec(message);
  return [{ file: opt?.groups?.file ?? null, line: null, field: null, message }];
}

/** Thrown (as `signal.reason` when it is one) when a long call is cancelled through its AbortSignal. */
export function abortError(signal: AbortSignal): Error {
  if (signal.reason instanceof Error) return signal.reason;
  const e = new Error("the operation was aborted");
  e.name = "AbortError";
  return e;
}

/** Throws when the signal was aborted: long calls check it between steps. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortError(signal);
}

/** Short, single-line description of a value for "expected X, got Y" messages. */
export function describeValue(v: unknown): string {
  if (v === undefined) return "nothing (field missing)";
  if (v === null) return "null";
  if (typeof v === "string") {
    const s = JSON.stringify(v.length > 40 ? v.slice(0, 40) + "…" : v);
    return `string ${s}`;
  }
  if (typeof v === "number") return Number.isFinite(v) ? `number ${v}` : String(v);
  if (typeof v === "boolean") return `boolean ${v}`;
  if (Array.isArray(v)) return `array of ${v.length}`;
  if (typeof v === "object") return "object";
  return typeof v;
}

/**
 * An error raised while work was in flight (a consumer, a worker, sharp), as
 * the run ends with it: georeplay's own errors and cancellations pass
 * through; anything else becomes an input error that says where it happened.
 */
export function inFlightError(e: unknown, where: { file: string; line: number | null; what: string }): Error {
  if (e instanceof GeoreplayError || (e instanceof Error && e.name === "AbortError")) return e;
  const at = where.line === null ? where.file : `${where.file}:${where.line}`;
  const message = `${at}: ${where.what}: ${errorMessage(e).split("\n")[0]}`;
  return new GeoreplayError(message, "input", [{ file: where.file, line: where.line, field: null, message }]);
}

/** Message of an unknown thrown value, for wrapping library errors. */
export function errorMessage(e: unknown): string {
  if (e instanceof Error) return e.message;
  return String(e);
}

/**
 * One line per distinct problem, naming every turn it stopped (`turns 2, 3: ...`): a broken
 * panorama fails each of its views alike, and one line with the turns says it better than
 * four identical ones. verify, frames and the board page all report view problems this way.
 */
export function problemsByTurn(items: Iterable<{ turn: number; message: string }>): string[] {
  const turns = new Map<string, number[]>();
  for (const { turn, message } of items) turns.set(message, [...(turns.get(message) ?? []), turn]);
  return [...turns].map(([message, ts]) => `${ts.length > 1 ? "turns" : "turn"} ${ts.join(", ")}: ${message}`);
}
