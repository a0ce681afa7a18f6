/**
 * Choosing the other side of a two-up video from a board: the named arm's
 * (model_name's) attempt on episode A's task (split and task.index) and pass
 * (task.sample: the one given, else A's, else the arm's lowest).
 */
import { GeoreplayError } from "../../../../replay/io/errors.ts";
import { readEpisodeRecords } from "../formats/records.ts";
import type { InputFormat } from "../../../../replay/formats/inputs.ts";

/** One replayable attempt as the choice sees it. */
export interface Attempt {
  episodeId: string;
  arm: string;
  split: string;
  index: number;
  sample: number | null;
  file: string;
  line: number;
}

export interface VersusWanted {
  arm: string;
  /** task.sample to take; default A's sample, else the arm's lowest. */
  pass?: number;
}

/** What exists at this task, for the error message: `base (passes 0, 1); ckpt200 (pass 0)`. */
export function armsAtTask(attempts: Attempt[]): string {
  const byArm = new Map<string, Set<number | null>>();
  for (const t of attempts) byArm.set(t.arm, (byArm.get(t.arm) ?? new Set()).add(t.sample));
  return [...byArm.keys()]
    .sort()
    .map((arm) => {
      const ps = [...byArm.get(arm)!].sort((x, y) => (x ?? -1) - (y ?? -1));
      const named = ps.map((p) => (p === null ? "none" : String(p)));
      return `${JSON.stringify(arm)} (${ps.length === 1 ? "pass" : "passes"} ${named.join(", ")})`;
    })
    .join("; ");
}

/**
 * Pure: from every attempt in the inputs, the one to put beside `a`. Throws a
 * GeoreplayError (input) naming the arms and passes that exist at A's task
 * when the arm or pass is not there.
 */
export function pickVersusAttempt(attempts: Attempt[], a: Attempt, wanted: VersusWanted): Attempt {
  const atTask = attempts.filter((t) => t.split === a.split && t.index === a.index);
  const others = atTask.filter((t) => !(t.file === a.file && t.line === a.line));
  const task = `${a.split} #${a.index}`;
  const mine = others.filter((t) => t.arm === wanted.arm);
  if (mine.length === 0) {
    const exist = armsAtTask(atTask);
    throw new GeoreplayError(
      `--versus-arm ${JSON.stringify(wanted.arm)}: no attempt by that arm at task ${task} (episode ${a.episodeId}'s task)` +
        (exist ? `; attempts at this task: ${exist}` : ""),
    );
  }
  let pick: Attempt | undefined;
  if (wanted.pass !== undefined) {
    pick = mine.find((t) => t.sample === wanted.pass);
    if (!pick) {
      throw new GeoreplayError(
        `--versus-arm ${JSON.stringify(wanted.arm)} --pass ${wanted.pass}: that arm has no pass ${wanted.pass} at task ${task}; attempts at this task: ${armsAtTask(atTask)}`,
      );
    }
    return pick;
  }
  pick = a.sample !== null ? mine.find((t) => t.sample === a.sample) : undefined;
  if (pick) return pick;
  // The lowest pass (a recorded one before none); input order breaks ties.
  return [...mine].sort((x, y) => (x.sample ?? Number.MAX_SAFE_INTEGER) - (y.sample ?? Number.MAX_SAFE_INTEGER))[0];
}

/** Every replayable attempt in the inputs (unreadable lines are left to `verify` to report). */
export async function listAttempts(files: string[], format?: InputFormat, signal?: AbortSignal): Promise<Attempt[]> {
  const out: Attempt[] = [];
  for await (const r of readEpisodeRecords(files, { format })) {
    if (signal?.aborted) break;
    if (r.kind !== "episode") continue;
    const e = r.episode;
    out.push({
      episodeId: e.episode_id,
      arm: e.model_name,
      split: e.task.split,
      index: e.task.index,
      sample: e.task.sample ?? null,
      file: r.file,
      line: r.line,
    });
  }
  return out;
}
