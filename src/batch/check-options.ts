/** A batch's options that contradict each other, and its folder: refused or created before any work, for every environment. */
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import type { VideoFormat } from "../../replay/batch/manifest-schema.ts";
import { GeoreplayError } from "../../replay/io/errors.ts";

export interface BatchOptionsToCheck {
  format?: VideoFormat;
  maxMb?: number | null;
  /** null: no poster; "beside": `<name>.png` beside each video; else this file (one video). */
  poster?: null | "beside" | string;
  posterFrame?: number | null;
}

/** Options that contradict each other, refused before any work. */
export function checkBatchOptions(o: BatchOptionsToCheck): void {
  const format = o.format ?? "mp4";
  if (o.maxMb !== undefined && o.maxMb !== null && format !== "gif" && format !== "webp")
    throw new GeoreplayError(`--max-mb sets the budget of gif and webp files (this batch writes ${format})`);
  if (o.posterFrame !== undefined && o.posterFrame !== null && (o.poster === undefined || o.poster === null))
    throw new GeoreplayError("--poster-frame goes with --poster");
}

/** `--poster FILE` names one still: refused for a batch of another number of videos (after planning, before rendering). */
export function checkPosterCount(poster: null | "beside" | string, videos: number): void {
  if (poster !== null && poster !== "beside" && videos !== 1)
    throw new GeoreplayError(`--poster ${poster}: one file for ${videos} videos; give --poster alone to write <name>.png beside each video`);
}

/** The batch's folder, created if missing; its absolute path. */
export function makeBatchFolder(given: string): string {
  const dir = resolve(given);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    throw new GeoreplayError(`-o ${given}: cannot create the folder (${(e as Error).message})`);
  }
  return dir;
}
