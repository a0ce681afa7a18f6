/** Step 1 of `frames`: find one episode of the input, by id or by "#n" ordinal. */
import { GeoreplayError } from "../../../../replay/io/errors.ts";
import { readEpisodeRecords, recordProblem, type RecordFormat } from "../formats/records.ts";
import type { InputFormat } from "../../../../replay/formats/inputs.ts";
import type { RecordedImage } from "../formats/example.ts";
import type { HashScheme } from "../../../../replay/render/hash.ts";
import type { Episode } from "../schema/episode.ts";

export interface FoundEpisode {
  episode: Episode;
  file: string;
  line: number;
  format: RecordFormat;
  /** Digest scheme of the recorded views; null when the record has none (example-rollout). */
  scheme: HashScheme | null;
  /** Example-rollout: the recorded image files. */
  images: RecordedImage[] | null;
}

/** Finds one episode by id or by "#n" ordinal; says exactly why when it cannot. */
export async function findEpisode(files: string[], wanted: string, format?: InputFormat): Promise<FoundEpisode> {
  const ord = /^#(\d+)$/.exec(wanted.trim());
  const ordinal = ord ? Number(ord[1]) : null;
  if (ordinal === 0) throw new GeoreplayError(`--episode ${wanted}: ordinals start at #1`);
  let n = 0;
  let invalid = 0;
  for await (const r of readEpisodeRecords(files, { format })) {
    if (r.kind === "episode") {
      n++;
      if (ordinal !== null ? n === ordinal : r.episode.episode_id === wanted) {
        return { episode: r.episode, file: r.file, line: r.line, format: r.format, scheme: r.scheme, images: r.images ?? null };
      }
    } else if (r.kind === "errored") {
      if (ordinal === null && r.episodeId === wanted) {
        throw new GeoreplayError(`${r.file}:${r.line}: episode ${wanted} errored in the environment (${r.error}); it has no turns to replay`);
      }
    } else {
      invalid++;
      const problem = recordProblem(r);
      // An id we cannot read may be the one asked for: say so rather than "not found".
      if (ordinal === null && problem && problem.includes(JSON.stringify(wanted).slice(1, -1))) throw new GeoreplayError(problem);
    }
  }
  const what = ordinal !== null ? `episode #${ordinal}` : `episode ${JSON.stringify(wanted)}`;
  const extra = invalid ? `; ${invalid} line(s) were unreadable or invalid (run georeplay verify for details)` : "";
  throw new GeoreplayError(`${what} not found in ${files.join(", ")} (${n} replayable episode(s)${extra})`);
}
