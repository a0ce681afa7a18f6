/**
 * Exit codes are the CLI's contract, decided here and nowhere in the engine:
 *   0  everything checked and matched
 *   1  the inputs were read completely, and some view drifted from its recorded hash
 *   2  the run could not check what it was asked (bad input, missing file, nothing to check)
 *   130/143 interrupted by SIGINT/SIGTERM
 * One precedence rule for every command: an input problem (2) wins over drift
 * (1), because "1" promises the whole run was read; a run with both says so
 * on stderr and in its JSON (mismatches and errors alike).
 */
import type { ErrorKind } from "../../replay/io/errors.ts";

export const EXIT_OK = 0;
export const EXIT_MISMATCH = 1;
export const EXIT_INPUT = 2;

export function exitCodeForKind(kind: ErrorKind): number {
  return kind === "drift" ? EXIT_MISMATCH : EXIT_INPUT;
}

/** The precedence rule: input problems, then drift, then ok. */
export function runExitCode(o: { problems: number; mismatch: number }): number {
  if (o.problems > 0) return EXIT_INPUT;
  if (o.mismatch > 0) return EXIT_MISMATCH;
  return EXIT_OK;
}

/** A batch's outcome, by the same rule: a video that could not be read or rendered (2) beats a drifted one (1). */
export function batchExitCode(failures: readonly { kind: "drift" | "input" | "render" }[]): number {
  const drift = failures.filter((f) => f.kind === "drift").length;
  return runExitCode({ problems: failures.length - drift, mismatch: drift });
}
