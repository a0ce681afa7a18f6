/**
 * Which inputs make a board page without `--baseline`: eval episodes only,
 * at least one of them given as a folder (a sweep or board, read as
 * `georeplay report` reads it). Episodes files named one by one stay a run
 * page; training and example-rollout traces are no board. The board is read
 * here once and handed to the board page, so its report is the one the
 * engine gives for these inputs.
 */
import { readBoard, type Board } from "../../../replay/board/index.ts";
import type { Source } from "../../../../../replay/formats/inputs.ts";
import { GeoreplayError } from "../../../../../replay/io/errors.ts";

export function isBoardInput(sources: readonly Source[]): boolean {
  return sources.length > 0 && sources.every((s) => s.format === "eval") && sources.some((s) => s.sweep !== null);
}

/**
 * The board of a folder input, or null when the inputs are no board or hold
 * no row the report can read (geoeval stops there; the run page still shows
 * the episodes and their problems).
 */
export async function boardOfInputs(sources: readonly Source[], inputs: readonly string[], signal?: AbortSignal): Promise<Board | null> {
  if (!isBoardInput(sources)) return null;
  try {
    const board = await readBoard(inputs, { signal });
    return board.scored > 0 ? board : null;
  } catch (e) {
    if (e instanceof GeoreplayError && e.kind === "input") return null;
    throw e;
  }
}
