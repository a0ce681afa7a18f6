/**
 * The verifier: streams episode records, re-renders every recorded view on a
 * worker pool and compares digests. Produces the `--json` report of
 * `georeplay verify`, and optionally hands each verified episode (with its
 * rendered JPEGs) to a consumer in input order, one at a time, so pages and
 * videos are built from views that were checked on the way.
 */
import { readFile } from "node:fs/promises";
import sharp from "sharp";
import { GeoreplayError, abortError, inFlightError, problemsByTurn } from "../../../../replay/io/errors.ts";
import { onAbort, throwIfAborted } from "../../../../replay/io/abort.ts";
import { readEpisodeRecords, recordProblem } from "../formats/records.ts";
import { resolveInputs, type InputFormat } from "../../../../replay/formats/inputs.ts";
import type { RecordFormat } from "../formats/records.ts";
import type { RecordedImage } from "../formats/example.ts";
import type { HashScheme } from "../../../../replay/render/hash.ts";
import { openPanoDir } from "../panos/store.ts";
import { TaskIndex } from "../tasks/task-index.ts";
import type { Episode, Camera } from "../schema/episode.ts";
import type { TaskRow } from "../schema/task.ts";
import { createPool, type JobPool } from "./pool.ts";
import { defaultJobs } from "../../../../replay/verify/jobs.ts";
import { createViewChecker, type ViewChecker } from "./view-checker.ts";
import { viewJobs } from "./view-jobs.ts";
import type { ViewOutcome } from "./job-runner.ts";
import { checkGroupStarts, type GroupStartFailure, type SiblingStart } from "../../../../replay/groups/determinism.ts";
import { firstViewOf } from "./first-view.ts";
import type { TrainInfo } from "../formats/train.ts";

export type { ViewOutcome } from "./job-runner.ts";

export { parseShard, type Shard } from "../../../../replay/io/shard.ts";
import type { Shard } from "../../../../replay/io/shard.ts";

export interface VerifyProgress {
  episodes: number;
  views: number;
  mismatch: number;
  /** Share of the input bytes read so far (0..1). */
  fraction: number;
}

export interface VerifyOptions {
  /** Eval episodes.jsonl, GRPO rollouts*.jsonl, example-rollout folders or sweep folders. */
  episodes: string[];
  /** Needed to re-render eval and training episodes (not for example-rollout folders). */
  tasks?: string;
  panos?: string;
  /** Overrides format detection. */
  format?: InputFormat;
  viewSize?: number;
  jobs?: number;
  shard?: Shard;
  limit?: number;
  keepImages?: boolean;
  /**
   * With keepImages: a repeated view's outcome comes without its JPEG (the first episode to get a view
   * had it, and consumers see episodes in input order): for a consumer that keeps each image once by
   * digest (a board page), so the repeat cache holds no image bytes.
   */
  imagesOnce?: boolean;
  episodeFilter?: (e: Episode, ordinal: number) => boolean;
  onEpisode?: (v: VerifiedEpisode) => void | Promise<void>;
  /** An episode the environment failed (no turns; also in the report's errored_episodes): pages list it. */
  onErrored?: (e: ErroredEpisodeInfo) => void;
  onProgress?: (p: VerifyProgress) => void;
  /** Cancels the run: reading stops, workers are stopped, the call rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Runs on this pool (frames shares its pool this way) instead of one of its own; the caller closes it. */
  pool?: JobPool;
  /** Called once with the number of distinct views rendered (repeats are rendered once per run). */
  onStats?: (s: { rendered: number }) => void;
}

/** What a record of a failed episode says: where it is, who ran which task, and the error (first line). */
export interface ErroredEpisodeInfo {
  file: string;
  line: number;
  episodeId: string;
  error: string;
  modelName: string | null;
  task: { split: string | null; index: number | null; sample: number | null } | null;
  /** The report's message for it. */
  message: string;
}

export interface VerifiedEpisode {
  file: string;
  line: number;
  /** 1-based position among the replayable episodes of the input, before sharding. */
  ordinal: number;
  episode: Episode;
  format: RecordFormat;
  /** Example-rollout episodes: the recorded image files (checked to exist and decode). */
  images: RecordedImage[];
  task: TaskRow | null;
  views: ViewOutcome[];
  errors: string[];
  /** Checked, but worth a look (e.g. image files overwritten by a later episode). */
  warnings: string[];
}

export interface MismatchEntry {
  episode_id: string;
  turn: number;
  split: string;
  index: number;
  camera: Camera;
  recorded: string;
  rendered: string;
  file: string;
  line: number;
}

export interface ProblemEntry {
  file: string;
  line: number | null;
  episode_id: string | null;
  message: string;
}

export interface VerifyReport {
  episodes: number;
  checked: number;
  match: number;
  mismatch: number;
  resolved: number;
  skipped: {
    map_turns: number;
    no_image_turns: number;
    views_without_hash: number;
    errored_episodes: number;
    other_shards: number;
  };
  /** Episodes by recording format. */
  formats: Record<RecordFormat, number>;
  /** Example-rollout folders have no hashes: their image files are checked to exist and decode instead. */
  recorded_images: { checked: number; ok: number };
  mismatches: MismatchEntry[];
  /**
   * Training rollouts: the determinism contract of GRPO groups. Every sibling of a group (same run,
   * step and task, or same recorded group_id) must start from the same first view: the same recorded
   * first image hash, camera and (where recorded) prompt. `compared` counts groups of two or more
   * siblings; each failure names its group, its siblings (file:line) and what differs. A failure is
   * drift (exit 1). Compared over every valid rollout read, whatever --shard leaves to other shards.
   */
  group_starts: { compared: number; failures: GroupStartFailure[] };
  errors: ProblemEntry[];
  errored_episodes: ProblemEntry[];
  warnings: ProblemEntry[];
  shard: string | null;
}

/** What one run checks with: inputs, task index, panoramas, pool and view checker. */
interface RunContext {
  opts: VerifyOptions;
  report: VerifyReport;
  tasks: TaskIndex | null;
  panos: string;
  size: number;
  checker: ViewChecker | null;
  /** One per episode started since the last flush: settles once its views are queued on the checker (or it has none). */
  staging: Promise<unknown>[];
}

/**
 * Streams the records, checks each episode on the pool and settles them in
 * input order: open, admit, check, tally, finish. Episodes are checked in
 * windows: a window's views are queued, then sent to the pool grouped by
 * panorama file (each panorama decoded once per window, whichever episodes
 * sample it) while the next window is read.
 */
export async function verifyRun(opts: VerifyOptions): Promise<VerifyReport> {
  const sources = await resolveInputs(opts.episodes, opts.format);
  const totalBytes = sources.reduce((n, s) => n + s.size, 0);
  const needsReplay = sources.some((s) => s.format !== "example");
  if (needsReplay && (!opts.tasks || !opts.panos)) {
    throw new GeoreplayError(
      "--tasks and --panos are needed to re-render eval and training episodes (only example-rollout folders carry their images); when not given they are looked for beside the run and one folder up (tasks.jsonl or tasks/, and panos/)",
    );
  }
  const jobs = Math.max(1, opts.jobs ?? defaultJobs(totalBytes));
  const ownPool = needsReplay && !opts.pool;
  // Inputs are checked before any worker starts: a bad --tasks or --panos leaves nothing running.
  const tasks = needsReplay ? TaskIndex.open(opts.tasks!) : null;
  const panos = needsReplay ? openPanoDir(opts.panos!) : "";
  const pool = needsReplay ? (opts.pool ?? createPool({ jobs, panos })) : null;
  const ctx: RunContext = {
    opts,
    report: emptyReport(opts.shard),
    tasks,
    panos,
    size: opts.viewSize ?? 640,
    checker: pool ? createViewChecker(pool, opts.keepImages ?? false, { batch: true, imagesOnce: opts.imagesOnce ?? false }) : null,
    staging: [],
  };
  const { report } = ctx;
  const seenIds = new Map<string, string>();
  // Episodes in flight, in input order; consumers see them in that order.
  const inflight: Promise<VerifiedEpisode>[] = [];
  // A window: episodes whose views are grouped by panorama before any is rendered. Without images
  // it is wide (fewer decodes), yet bounded: every episode in flight is held parsed (a board's
  // lines are ~95 KB). With images (page, frames) every view's JPEG is held until its episode
  // settles, so it stays narrow. Two windows in flight: the next is read and queued while the
  // pool works through the last.
  const window = opts.keepImages ? jobs * 8 : 64;
  const maxInflight = 2 * window;
  let unflushed = 0;
  const flush = async () => {
    // Every started episode must have queued its views, or an episode awaited below would wait forever.
    while (ctx.staging.length) await Promise.all(ctx.staging.splice(0));
    ctx.checker?.flush();
    unflushed = 0;
  };
  let bytesRead = 0;
  const counter = { ordinal: 0 };

  const progress = () =>
    opts.onProgress?.({ episodes: report.episodes, views: report.checked, mismatch: report.mismatch, fraction: totalBytes ? bytesRead / totalBytes : 1 });
  const settle = async (v: VerifiedEpisode) => {
    tally(report, v);
    progress();
    try {
      await opts.onEpisode?.(v);
    } catch (e) {
      throw inFlightError(e, { file: v.file, line: v.line, what: `episode ${v.episode.episode_id}` });
    }
  };
  const start = (p: Promise<VerifiedEpisode>) => {
    // Settled in order below; if the run ends early (a consumer threw, a worker died), the
    // episodes still in flight reject when the pool closes, with nobody left to await them.
    p.catch(() => undefined);
    inflight.push(p);
  };

  const recordsPerFile = new Map<string, number>(sources.map((s) => [s.file, 0]));
  // Each training rollout's first view, for the determinism check once everything is read (a few strings each).
  const starts: SiblingStart[] = [];
  const offAbort = onAbort(opts.signal, () => pool?.close());
  try {
    for await (const rec of readEpisodeRecords(sources)) {
      throwIfAborted(opts.signal);
      if (opts.limit !== undefined && report.episodes >= opts.limit) break;
      bytesRead += rec.bytes;
      recordsPerFile.set(rec.file, (recordsPerFile.get(rec.file) ?? 0) + 1);
      if (rec.kind === "episode" && rec.format === "train") starts.push(siblingStart(rec.episode, rec.file, rec.line));
      if (!admit(ctx, rec, counter, seenIds) || rec.kind !== "episode") continue;
      const { ordinal } = counter;
      start(
        rec.images
          ? checkRecordedImages(ctx, rec.episode, rec.format, rec.images, rec.file, rec.line, ordinal)
          : checkEpisode(ctx, rec.episode, rec.format, rec.scheme ?? "sha256", rec.file, rec.line, ordinal),
      );
      if (++unflushed >= window) await flush();
      while (inflight.length >= maxInflight) await settle(await inflight.shift()!);
    }
    await flush();
    while (inflight.length) await settle(await inflight.shift()!);
    const limited = opts.limit !== undefined && report.episodes >= opts.limit;
    await reportInputProblems(ctx, recordsPerFile, limited);
    throwIfAborted(opts.signal);
  } catch (e) {
    // An abort closes the pool under running work: the run ends with the abort, not with what it broke.
    if (opts.signal?.aborted) throw abortError(opts.signal);
    throw e;
  } finally {
    offAbort();
    if (ownPool) await pool?.close();
  }
  opts.onStats?.({ rendered: ctx.checker?.rendered ?? 0 });
  bytesRead = totalBytes;
  progress();
  report.mismatches.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.turn - b.turn);
  const groups = checkGroupStarts(starts);
  report.group_starts = { compared: groups.compared, failures: groups.failures };
  return report;
}

/** A training rollout's group and first view. */
function siblingStart(ep: Episode, file: string, line: number): SiblingStart {
  const t = (ep as { train?: TrainInfo }).train;
  return {
    run: t?.run ?? "",
    step: t?.step ?? 0,
    split: ep.task.split,
    index: ep.task.index,
    groupId: t?.groupId ?? null,
    file,
    line,
    ...firstViewOf(ep),
  };
}

function emptyReport(shard: Shard | undefined): VerifyReport {
  return {
    episodes: 0,
    checked: 0,
    match: 0,
    mismatch: 0,
    resolved: 0,
    skipped: { map_turns: 0, no_image_turns: 0, views_without_hash: 0, errored_episodes: 0, other_shards: 0 },
    formats: { eval: 0, train: 0, example: 0 },
    recorded_images: { checked: 0, ok: 0 },
    mismatches: [],
    group_starts: { compared: 0, failures: [] },
    errors: [],
    errored_episodes: [],
    warnings: [],
    shard: shard ? `${shard.index}/${shard.count}` : null,
  };
}

type EpisodeRecord = Parameters<typeof recordProblem>[0];

/**
 * Whether a record is an episode this run checks; everything else is counted
 * or reported here (invalid records, errored episodes, other shards, repeated ids).
 * Every valid episode takes the next ordinal (its place before sharding and filtering).
 */
function admit(ctx: RunContext, rec: EpisodeRecord, counter: { ordinal: number }, seenIds: Map<string, string>): boolean {
  const { report, opts } = ctx;
  const problem = recordProblem(rec);
  if (problem) {
    report.errors.push({ file: rec.file, line: rec.line, episode_id: null, message: problem });
    return false;
  }
  if (rec.kind === "errored") {
    report.skipped.errored_episodes++;
    const message = `${rec.file}:${rec.line}: episode ${rec.episodeId} errored in the environment and has no turns: ${rec.error}`;
    report.errored_episodes.push({ file: rec.file, line: rec.line, episode_id: rec.episodeId, message });
    opts.onErrored?.({
      file: rec.file,
      line: rec.line,
      episodeId: rec.episodeId,
      error: rec.error,
      modelName: rec.modelName ?? null,
      task: rec.task ?? null,
      message,
    });
    return false;
  }
  if (rec.kind !== "episode") return false;
  const ep = rec.episode;
  const ordinal = ++counter.ordinal;
  if (opts.shard && (ordinal - 1) % opts.shard.count !== opts.shard.index - 1) {
    report.skipped.other_shards++;
    return false;
  }
  if (opts.episodeFilter && !opts.episodeFilter(ep, ordinal)) return false;
  const where = `${rec.file}:${rec.line}`;
  const prev = seenIds.get(ep.episode_id);
  if (prev)
    report.warnings.push({
      file: rec.file,
      line: rec.line,
      episode_id: ep.episode_id,
      message: `${where}: episode_id ${ep.episode_id} also appears at ${prev}; both are checked`,
    });
  else seenIds.set(ep.episode_id, where);
  report.episodes++;
  report.formats[rec.format]++;
  return true;
}

/** Adds one checked episode's views, errors and warnings to the report. */
function tally(report: VerifyReport, v: VerifiedEpisode): void {
  for (const out of v.views) {
    if (out.status === "error") continue;
    report.checked++;
    if (out.status === "mismatch") {
      report.mismatch++;
      const t = v.episode.turns.find((x) => x.turn === out.turn)!;
      report.mismatches.push({
        episode_id: v.episode.episode_id,
        turn: out.turn,
        split: v.episode.task.split,
        index: v.episode.task.index,
        camera: t.camera_after as Camera,
        recorded: out.recorded,
        rendered: out.rendered ?? "",
        file: v.file,
        line: v.line,
      });
    } else {
      report.match++;
      if (out.status === "resolved") report.resolved++;
    }
  }
  for (const message of v.errors) report.errors.push({ file: v.file, line: v.line, episode_id: v.episode.episode_id, message });
  for (const message of v.warnings) report.warnings.push({ file: v.file, line: v.line, episode_id: v.episode.episode_id, message });
}

/** Input files without a single record, and the task index's own problems. */
async function reportInputProblems(ctx: RunContext, recordsPerFile: Map<string, number>, limited: boolean): Promise<void> {
  const { report, opts } = ctx;
  for (const [file, n] of recordsPerFile) {
    if (n === 0 && !limited)
      report.errors.push({ file, line: null, episode_id: null, message: `${file}: no episode records (the file is empty or only blank lines)` });
  }
  for (const p of (await ctx.tasks?.problems()) ?? []) report.errors.push({ file: opts.tasks ?? "", line: null, episode_id: null, message: p });
}

/** An episode's entry in the run before any check, and how its problems name it. */
function episodeEntry(ep: Episode, format: RecordFormat, images: RecordedImage[], file: string, line: number, ord: number) {
  const base: VerifiedEpisode = { file, line, ordinal: ord, episode: ep, format, images, task: null, views: [], errors: [], warnings: [] };
  return { where: `${file}:${line}: episode ${ep.episode_id}`, base };
}

/** Example-rollout episodes have no hashes: every image they reference must exist and decode. */
async function checkRecordedImages(
  ctx: RunContext,
  ep: Episode,
  format: RecordFormat,
  images: RecordedImage[],
  file: string,
  line: number,
  ord: number,
): Promise<VerifiedEpisode> {
  const { report } = ctx;
  const { where, base } = episodeEntry(ep, format, images, file, line, ord);
  for (const t of ep.turns) if (t.image_kind === "map") report.skipped.map_turns++;
  for (const img of images) {
    report.recorded_images.checked++;
    try {
      // Read the bytes ourselves: a missing file is then ENOENT, not whatever libvips words it as on this host.
      const bytes = await readFile(img.path);
      const meta = await sharp(bytes, { failOn: "warning" }).metadata();
      const want = img.kind === "view" ? "jpeg" : "png";
      if (meta.format !== want) throw new Error(`is ${meta.format}, expected ${want}`);
      await sharp(bytes, { failOn: "warning" }).raw().toBuffer();
      report.recorded_images.ok++;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      const msg = code === "ENOENT" ? "missing" : code === "EISDIR" ? "is a directory" : (e as Error).message.split("\n")[0];
      base.errors.push(`${where}: turn ${img.turn}: recorded image ${img.path}: ${msg}`);
    }
    if (img.nameMismatch) base.warnings.push(`${where}: turn ${img.turn}: the trace names another image file than ${img.path}; the naming rule's file is used`);
  }
  if (images.length && !images[0].trustworthy) {
    base.warnings.push(`${where}: a later episode of task ${ep.task.index} overwrote this episode's image files; the images shown belong to that episode`);
  }
  return base;
}

/** Re-renders an episode's recorded views on the pool and compares digests. */
async function checkEpisode(
  ctx: RunContext,
  ep: Episode,
  format: RecordFormat,
  scheme: HashScheme,
  file: string,
  line: number,
  ord: number,
): Promise<VerifiedEpisode> {
  const { report } = ctx;
  const { where, base } = episodeEntry(ep, format, [], file, line, ord);
  // The task lookup may wait on a read: the run's next flush waits for this episode's views to be
  // queued (settled in `finally`: an episode that fails before queueing must not hold the flush).
  let staged!: () => void;
  ctx.staging.push(new Promise<void>((r) => (staged = r)));
  let checking: Promise<ViewOutcome[]>;
  try {
    let task: TaskRow;
    try {
      task = (await ctx.tasks!.lookup(ep.task.split, ep.task.index)).row;
    } catch (e) {
      base.errors.push(`${where}: ${(e as Error).message}`);
      return base;
    }
    base.task = task;
    const built = viewJobs(ep, task, ctx.panos, ctx.size, scheme);
    report.skipped.map_turns += built.counts.map;
    report.skipped.no_image_turns += built.counts.none;
    report.skipped.views_without_hash += built.counts.viewWithoutHash;
    for (const p of built.problems) base.errors.push(`${where}: ${p.message}`);
    checking = built.jobs.length ? ctx.checker!.check(built.jobs) : Promise.resolve([]);
  } finally {
    staged();
  }
  base.views = await checking;
  const failed = base.views.filter((v) => v.status === "error").map((v) => ({ turn: v.turn, message: v.error ?? "the view could not be rendered" }));
  for (const l of problemsByTurn(failed)) base.errors.push(`${where}: ${l}`);
  return base;
}
