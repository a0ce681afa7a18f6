/** Lines of a board that are not JSON: named on stderr (the report of the other rows is printed), exit 2 as verify does. */
import { EXIT_INPUT, EXIT_OK } from "./exit-codes.ts";

/** Lines that are not JSON named one by one, up to this many. */
const MAX_NAMED = 20;

/** verify's words for a line that is not JSON (replay/io/jsonl.ts), the last one a writer cut off. */
export function tornMessage(t: { file: string; line: number; last: boolean }): string {
  return `${t.file}:${t.line}: not valid JSON, skipped${t.last ? " (the last line looks truncated: was the file still being written?)" : ""}`;
}

/** Names each line that is not JSON on stderr (the report of the other rows is printed): exit 2 when any, as verify. */
export function reportTorn(torn: readonly { file: string; line: number; last: boolean }[]): number {
  for (const t of torn.slice(0, MAX_NAMED)) process.stderr.write(`${tornMessage(t)}\n`);
  if (torn.length > MAX_NAMED) process.stderr.write(`… and ${torn.length - MAX_NAMED} more line(s) that are not JSON\n`);
  if (torn.length)
    process.stderr.write(`${torn.length} line(s) that are not JSON kept georeplay from reading every row: the report is of the others (exit 2)\n`);
  return torn.length ? EXIT_INPUT : EXIT_OK;
}
