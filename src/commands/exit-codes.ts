/**
 * Exit codes are the CLI's contract, decided here and nowhere in the engine:
 *   0  everything checked and matched
 *   1  the inputs were read, and some view drifted from its recorded hash
 *   2  the run could not check what it was asked (bad input, missing file, nothing to check)
 *   130/143 interrupted by SIGINT/SIGTERM
 */
import type { VerifyReport } from "../../replay/verify/verify.ts";
import type { ErrorKind } from "../../replay/io/errors.ts";

export const EXIT_OK = 0;
export const EXIT_MISMATCH = 1;
export const EXIT_INPUT = 2;

export function exitCodeForKind(kind: ErrorKind): number {
  return kind === "drift" ? EXIT_MISMATCH : EXIT_INPUT;
}

/** verify's outcome: drift beats unreadable input, and checking nothing is an input problem. */
export function verifyExitCode(r: VerifyReport): number {
  if (r.mismatch > 0) return EXIT_MISMATCH;
  if (r.errors.length > 0 || r.checked + r.recorded_images.checked === 0) return EXIT_INPUT;
  return EXIT_OK;
}

/** A batch's outcome: any drifted video beats any other failure (input, render); all written or skipped is 0. */
export function batchExitCode(failures: readonly { kind: "drift" | "input" | "render" }[]): number {
  if (failures.some((f) => f.kind === "drift")) return EXIT_MISMATCH;
  if (failures.length > 0) return EXIT_INPUT;
  return EXIT_OK;
}
