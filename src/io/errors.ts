/**
 * Errors a user can act on. Anything thrown as a UserError is printed as its
 * message alone (no stack) and sets the process exit code.
 *
 * Exit codes are part of the CLI contract:
 *   0  everything checked and matched
 *   1  the inputs were read, and some view drifted from its recorded hash
 *   2  the run could not check what it was asked (bad input, missing file, nothing to check)
 *   130/143 interrupted by SIGINT/SIGTERM
 */
export const EXIT_OK = 0;
export const EXIT_MISMATCH = 1;
export const EXIT_INPUT = 2;

export class UserError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode = EXIT_INPUT) {
    super(message);
    this.name = "UserError";
    this.exitCode = exitCode;
  }
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

/** Message of an unknown thrown value, for wrapping library errors. */
export function errorMessage(e: unknown): string {
  if (e instanceof Error) return e.message;
  return String(e);
}
