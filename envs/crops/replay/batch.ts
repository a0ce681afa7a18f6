/**
 * A batch of crops videos, planned without rendering: every record of the run (one streaming
 * pass: the #n of `--episode #n`), the selection (several episodes, or all), and for the selected
 * ones only their frame counts (the camera plan `frames` films) and what each video is made from
 * (the record's content, the dataset's task index and ground truth, the image), for resuming.
 */
import { createHash } from "node:crypto";
import { statSync } from "node:fs";
import { join } from "node:path";
import { GeoreplayError, errorMessage, throwIfAborted } from "../../../replay/io/errors.ts";
import { readJsonl } from "../../../replay/io/jsonl.ts";
import type { ManifestInput } from "../../../replay/batch/manifest-schema.ts";
import { stemSlug, uniqueStems } from "../../../replay/batch/names.ts";
import { taskOf, type Dataset } from "./dataset.ts";
import { recordEnv } from "./inputs.ts";
import { planFrames } from "./frames-plan.ts";
import { CropsRecordSchema, parseOrThrow } from "./schema.ts";

/** One record of the run; `ordinal` is its 1-based #n across the run's files, as `--episode #n` counts. */
export interface CropsCandidate {
  ordinal: number;
  file: string;
  line: number;
  episodeId: string;
  /** model_name (the arm); "" when not recorded. */
  arm: string;
  /** task.sample, if recorded. */
  sample: number | null;
  split: string;
  index: number;
}

export type CropsSelection = { by: "episodes"; wanted: string[] } | { by: "all" };

export interface CropsPlanned {
  kind: "rollout";
  stem: string;
  sides: [CropsCandidate];
  task: null;
  /** Frames of the video at the batch's fps: the camera path and the score card (null: see `problem`). */
  frames: number | null;
  /** Why this video cannot be rendered (an input failure; the others go on). */
  problem: string | null;
  /** sha256 of the validated record (canonical JSON); the image file its task names. */
  recordSha: string | null;
  image: string | null;
}

const field = (v: unknown, k: string): unknown => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>)[k] : undefined);

/** Every record of the run's files, in order; a line that is not JSON, or not a crops record, is an input error naming it. */
export async function listCropsCandidates(files: readonly string[], signal?: AbortSignal): Promise<CropsCandidate[]> {
  const out: CropsCandidate[] = [];
  for (const file of files) {
    for await (const item of readJsonl(file)) {
      throwIfAborted(signal);
      if (item.kind === "error") throw new GeoreplayError(`${file}:${item.line}: ${item.message}`);
      recordEnv(item.value, file, item.line);
      const task = field(item.value, "task");
      const id = field(item.value, "episode_id");
      const [arm, sample, split, index] = [field(item.value, "model_name"), field(task, "sample"), field(task, "split"), field(task, "index")];
      out.push({
        ordinal: out.length + 1,
        file,
        line: item.line,
        // The plan validates the selected records; a bad id here is named there.
        episodeId: typeof id === "string" ? id : "",
        arm: typeof arm === "string" ? arm : "",
        sample: typeof sample === "number" ? sample : null,
        split: typeof split === "string" ? split : "",
        index: typeof index === "number" ? index : -1,
      });
    }
  }
  return out;
}

/** How a candidate is named to findCropsEpisode: its id, or #n when an earlier record has the same id (or it has none). */
export function cropsEpisodeRef(c: CropsCandidate, all: readonly CropsCandidate[]): string {
  const first = all.find((t) => t.episodeId === c.episodeId);
  return first === c && c.episodeId !== "" ? c.episodeId : `#${c.ordinal}`;
}

function findWanted(cands: readonly CropsCandidate[], wanted: string): CropsCandidate {
  const ord = /^#(\d+)$/.exec(wanted.trim());
  if (ord) {
    const n = Number(ord[1]);
    if (n === 0) throw new GeoreplayError(`--episode ${wanted}: ordinals start at #1`);
    const c = cands[n - 1];
    if (!c) throw new GeoreplayError(`--episode ${wanted}: the inputs have ${cands.length} crops episode(s)`);
    return c;
  }
  const c = cands.find((t) => t.episodeId === wanted);
  if (!c) throw new GeoreplayError(`--episode ${JSON.stringify(wanted)}: not found among the ${cands.length} crops episode(s) of the inputs`);
  return c;
}

/** The selected records, in render order, each named `<episode_id>` (sanitised; a later duplicate gets `-2`). */
export function selectCropsVideos(cands: readonly CropsCandidate[], sel: CropsSelection): CropsCandidate[] {
  return sel.by === "all" ? [...cands] : sel.wanted.map((w) => findWanted(cands, w));
}

/**
 * Frame counts and record digests of the selected records (a second streaming pass, validating
 * only those): the frames `frames` plans at `fps`, plus `cardFrames` of score card.
 */
export async function planCropsVideos(
  files: readonly string[],
  selected: readonly CropsCandidate[],
  opts: { fps: number; cardFrames: number; dataset: Dataset; signal?: AbortSignal },
): Promise<CropsPlanned[]> {
  const key = (c: { file: string; line: number }) => `${c.file}\0${c.line}`;
  const wanted = new Set(selected.map(key));
  const plans = new Map<string, { frames: number; recordSha: string; image: string } | string>();
  for (const file of files) {
    if (wanted.size === 0) break;
    for await (const item of readJsonl(file)) {
      throwIfAborted(opts.signal);
      const k = key({ file, line: item.line });
      if (item.kind !== "value" || !wanted.has(k)) continue;
      try {
        const rec = parseOrThrow(CropsRecordSchema, item.value, file, item.line);
        const task = taskOf(opts.dataset, rec.task.split, rec.task.index);
        if (!task)
          throw new GeoreplayError(
            `${file}:${item.line}: task: expected a row of ${opts.dataset.tasksFile} with split ${JSON.stringify(rec.task.split)} and task_index ${rec.task.index}, got none`,
          );
        const plan = planFrames(rec, opts.fps, task.width, task.height);
        plans.set(k, {
          frames: plan.frames.length + opts.cardFrames,
          recordSha: createHash("sha256").update(JSON.stringify(rec)).digest("hex"),
          image: join(opts.dataset.dir, task.file),
        });
      } catch (e) {
        plans.set(k, errorMessage(e));
      }
    }
  }
  const stems = uniqueStems(selected.map((c) => stemSlug(c.episodeId)));
  return selected.map((c, i) => {
    const p = plans.get(key(c)) ?? `${c.file}:${c.line}: episode ${c.episodeId} is no longer in the inputs`;
    const base = { kind: "rollout" as const, stem: stems[i], sides: [c] as [CropsCandidate], task: null };
    if (typeof p === "string") return { ...base, frames: null, problem: p, recordSha: null, image: null };
    return { ...base, frames: p.frames, problem: null, recordSha: p.recordSha, image: p.image };
  });
}

function fileInput(role: ManifestInput["role"], path: string): ManifestInput {
  let s: { bytes: number; mtime_ms: number } | null = null;
  try {
    const st = statSync(path);
    s = { bytes: st.size, mtime_ms: Math.floor(st.mtimeMs) };
  } catch {
    /* missing: the render says so */
  }
  return { role, path, line: null, bytes: s?.bytes ?? null, mtime_ms: s?.mtime_ms ?? null, sha256: null };
}

/**
 * What a crops video is made from, and one digest over it: the record (its validated content,
 * exact), the dataset's tasks.jsonl and gt.jsonl (the score card shows the ground truth) and the
 * image, by size and mtime. The digest is sha256 over this list as canonical JSON.
 */
export function cropsVideoInputs(v: CropsPlanned, ds: Dataset): { digest: string; files: ManifestInput[] } {
  const s = v.sides[0];
  const files: ManifestInput[] = [
    { role: "record", path: s.file, line: s.line, bytes: null, mtime_ms: null, sha256: v.recordSha },
    fileInput("tasks", ds.tasksFile),
    fileInput("ground_truth", ds.gtFile),
  ];
  if (v.image) files.push(fileInput("image", v.image));
  const digest = createHash("sha256").update(JSON.stringify(files)).digest("hex");
  return { digest, files };
}
