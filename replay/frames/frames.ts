/**
 * `georeplay frames`: verify one episode's views, then render one
 * reprojection per video frame and write `timeline.json`. Eval episodes and
 * GRPO training rollouts are replayed (each verified with its record's digest
 * scheme); example-rollout episodes, which record images but no camera
 * trajectory or hashes, become a labelled slideshow (see slideshow.ts).
 *
 * Order of work (each step refuses to go on when the previous one failed):
 *  1. find the episode and its task row; plan its segments (pure);
 *  2. re-render every view the model saw and compare it with its recorded
 *     hash; a drifted view aborts with exit 1 (unless --unverified);
 *  3. write the frame files: keyframes from the verified bytes, in-between
 *     frames on worker threads; a manifest of hashes lets a rerun reuse them;
 *  4. write `timeline.json` last, atomically.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism } from "node:os";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { GeoreplayError, errorMessage } from "../io/errors.ts";
import { readEpisodeRecords, recordProblem } from "../formats/records.ts";
import type { InputFormat } from "../formats/inputs.ts";
import type { RecordFormat } from "../formats/records.ts";
import type { RecordedImage } from "../formats/example.ts";
import type { HashScheme } from "../render/hash.ts";
import { onAbort, throwIfAborted } from "../io/abort.ts";
import { isTempName, writeAtomic } from "../io/atomic.ts";
import { openPanoDir, PanoError, PanoStore } from "../panos/store.ts";
import { TaskIndex } from "../tasks/task-index.ts";
import type { Episode } from "../schema/episode.ts";
import type { TaskRow } from "../schema/task.ts";
import type { ViewSpec } from "../render/reproject.ts";
import { viewJobs, frameOf, panoPath, type ViewJob } from "../verify/view-jobs.ts";
import { checkView } from "../render/view.ts";
import type { Timeline } from "../timeline/timeline-schema.ts";
import { planEpisode, PlanError, type FrameJob } from "../plan/segments.ts";
import { buildTimeline } from "../timeline/timeline.ts";
import { renderFrameFile, sha256, type RenderTask } from "./frame-render.ts";
import { planSlideshow } from "../plan/slideshow.ts";
import { recordedFrame, RECORDED_FRAME_TAG } from "./recorded-frame.ts";

export interface FramesOptions {
  /** Eval episodes.jsonl, GRPO rollouts*.jsonl, example-rollout folders or sweep folders. */
  episodes: string[];
  /** episode_id, or "#n": the n-th replayable episode of the input (1-based, as `verify` counts). */
  episode: string;
  /** Needed to replay eval and training episodes; optional for example-rollout episodes (then only for the credit line). */
  tasks?: string;
  /** Needed to replay eval and training episodes; unused for example-rollout episodes. */
  panos?: string;
  /** Overrides input format detection. */
  format?: InputFormat;
  /** Output folder; default `<publicDir>/rollouts/<slug>` (slug = sanitised episode id). */
  out?: string;
  fps?: number; // 30
  view?: number; // 640: size of the frame files
  /** Size the model saw (the trace's view size); keyframes are exact bytes only when view == viewSize. */
  viewSize?: number; // 640
  unverified?: boolean;
  jobs?: number;
  publicDir?: string; // default <cwd>/public
  onProgress?: (done: number, total: number) => void;
  /** Warnings worth a user's attention, as they happen (they are also in the result). */
  onWarning?: (message: string) => void;
  /** Cancels the run: workers stop, temp files are removed, no timeline is written; the call rejects. */
  signal?: AbortSignal;
}

export interface FramesStats {
  files: number;
  rendered: number;
  reused: number;
  keyframes: number;
  views: { checked: number; match: number; resolved: number; mismatch: number };
  /** Slideshows: recorded images shown (0 for a replay). */
  recordedImages: number;
}

export interface FramesResult {
  timelinePath: string;
  timeline: Timeline;
  slug: string;
  outDir: string;
  stats: FramesStats;
  warnings: string[];
}

const MANIFEST_VERSION = 1;
/** Bump when the frame renderer changes so old manifests stop matching. */
const RENDERER_TAG = "r1";

/** A file-system safe folder name from an episode id (trace text is never trusted as a path). */
export function slugFor(episodeId: string): string {
  const s = episodeId.replace(/[^A-Za-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 64);
  return s || "episode";
}

/** `framesDir` for the timeline: relative to Remotion's public dir when `out` is inside it, else "frames". */
export function framesDirFor(outDir: string, publicDir: string): string {
  const rel = relative(resolve(publicDir), resolve(outDir, "frames"));
  if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) return "frames";
  return rel.split(sep).join("/");
}

function checkInt(name: string, v: number, min: number, max: number): number {
  if (!Number.isInteger(v) || v < min || v > max) throw new GeoreplayError(`${name}: expected a whole number in ${min}..${max}, got ${v}`);
  return v;
}

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

interface Manifest {
  version: number;
  files: Record<string, { sha256: string; key: string }>;
}

function readManifest(path: string): Manifest {
  try {
    const m = JSON.parse(readFileSync(path, "utf8")) as Manifest;
    if (m && m.version === MANIFEST_VERSION && m.files && typeof m.files === "object") return m;
  } catch {
    /* missing or unreadable: start over */
  }
  return { version: MANIFEST_VERSION, files: {} };
}

function manifestText(files: Map<string, { sha256: string; key: string }>): string {
  const sorted = [...files.keys()].sort();
  return JSON.stringify({ version: MANIFEST_VERSION, files: Object.fromEntries(sorted.map((k) => [k, files.get(k)])) }, null, 1) + "\n";
}

function fileSha(path: string): string | null {
  try {
    return sha256(readFileSync(path));
  } catch {
    return null;
  }
}

/** How one view the model saw compares with our render of it. */
interface ViewOutcome {
  turn: number;
  status: "match" | "resolved" | "mismatch" | "error";
  recorded: string;
  rendered: string | null;
  /** Our render: the exact bytes the model saw when status is match/resolved. */
  jpeg?: Buffer;
  error?: string;
}

/** Verifies every view of the episode (checkView: plain render, then exact-boundary search). Identical views are checked once. */
async function verifyViews(jobs: ViewJob[], store: PanoStore): Promise<Map<number, ViewOutcome>> {
  const seen = new Map<string, ViewOutcome>();
  const out = new Map<number, ViewOutcome>();
  for (const j of jobs) {
    const key = JSON.stringify([j.path, j.view, j.expected, j.scheme]);
    let r = seen.get(key);
    if (!r) {
      try {
        const c = await checkView(await store.get(j.path), j.view, j.expected, j.scheme);
        r = { turn: j.turn, status: c.status, recorded: j.expected, rendered: c.digest, jpeg: c.jpeg };
      } catch (e) {
        const error = e instanceof PanoError ? e.message : errorMessage(e);
        r = { turn: j.turn, status: "error", recorded: j.expected, rendered: null, error };
      }
      seen.set(key, r);
    }
    out.set(j.turn, { ...r, turn: j.turn });
  }
  return out;
}

interface PendingRender {
  file: string;
  task: RenderTask;
  key: string;
}

/** Renders frame files on worker threads (compiled build) or in this thread (TypeScript sources, jobs = 1). */
async function renderAll(
  items: PendingRender[],
  opts: { panos: string; jobs: number; framesPath: string; signal?: AbortSignal; onDone: (item: PendingRender, sha: string) => void },
): Promise<void> {
  if (items.length === 0) return;
  const workerFile = fileURLToPath(new URL("./frames-worker.js", import.meta.url));
  const compiled = import.meta.url.endsWith(".js") && existsSync(workerFile);
  const n = Math.min(opts.jobs, items.length);
  if (n <= 1 || !compiled) {
    const store = new PanoStore(opts.panos, 512 * 1024 * 1024);
    for (const it of items) {
      throwIfAborted(opts.signal);
      opts.onDone(it, await renderFrameFile(store, it.task));
    }
    return;
  }
  const workers: Worker[] = [];
  // On abort: stop the workers first, then remove the temp file any of them was writing.
  let abortRun: ((e: Error) => void) | null = null;
  const off = onAbort(opts.signal, async () => {
    abortRun?.(opts.signal!.reason instanceof Error ? opts.signal!.reason : new Error("aborted"));
    await Promise.all(workers.map((w) => w.terminate()));
    sweepTemps(opts.framesPath);
  });
  try {
    let next = 0;
    await new Promise<void>((resolveAll, reject) => {
      abortRun = reject;
      let running = 0;
      let failed = false;
      const feed = (w: Worker) => {
        if (failed) return;
        if (next >= items.length) {
          if (running === 0) resolveAll();
          return;
        }
        const id = next++;
        running++;
        w.postMessage({ id, task: items[id].task });
      };
      for (let i = 0; i < n; i++) {
        const w = new Worker(workerFile, { workerData: { panos: opts.panos, cacheBytes: 384 * 1024 * 1024 } });
        workers.push(w);
        w.on("message", (m: { id: number; sha256?: string; error?: string }) => {
          running--;
          if (m.error !== undefined || !m.sha256) {
            failed = true;
            return reject(new Error(`frame ${items[m.id].file}: ${m.error ?? "no result"}`));
          }
          opts.onDone(items[m.id], m.sha256);
          feed(w);
        });
        w.on("error", (e) => {
          failed = true;
          reject(e);
        });
        feed(w);
      }
    });
  } finally {
    off();
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

/** Removes temp files of frame writes (`.NNNNNN.jpg.tmp-*`, `.manifest.json.tmp-*`) left by an interrupted run. */
function sweepTemps(framesPath: string): void {
  let names: string[];
  try {
    names = readdirSync(framesPath);
  } catch {
    return;
  }
  for (const name of names) if (isTempName(name)) rmSync(join(framesPath, name), { force: true });
}

/** Where one episode's output goes. */
interface OutputPaths {
  slug: string;
  publicDir: string;
  outDir: string;
  framesPath: string;
  timelinePath: string;
  manifestPath: string;
}

/** Creates the output folder; an old timeline goes first, so an interrupted run never leaves one that points at changed frames. */
function openOutput(opts: FramesOptions, episodeId: string): OutputPaths {
  const slug = slugFor(episodeId);
  const publicDir = resolve(opts.publicDir ?? join(process.cwd(), "public"));
  const outDir = resolve(opts.out ?? join(publicDir, "rollouts", slug));
  const framesPath = join(outDir, "frames");
  try {
    mkdirSync(framesPath, { recursive: true });
  } catch (e) {
    throw new GeoreplayError(`--out ${opts.out ?? outDir}: cannot create ${framesPath} (${errorMessage(e)})`);
  }
  const timelinePath = join(outDir, "timeline.json");
  rmSync(timelinePath, { force: true });
  return { slug, publicDir, outDir, framesPath, timelinePath, manifestPath: join(framesPath, "manifest.json") };
}

/** Frames of an older, longer plan and temp files of interrupted runs are removed. */
function removeStale(framesPath: string, manifest: Map<string, unknown>): void {
  for (const name of readdirSync(framesPath)) {
    const stale = (/^\d{6}\.jpg$/.test(name) && !manifest.has(name)) || isTempName(name);
    if (stale) rmSync(join(framesPath, name), { force: true });
  }
}

const emptyViews = { checked: 0, match: 0, resolved: 0, mismatch: 0 };

export async function generateFrames(opts: FramesOptions): Promise<FramesResult> {
  const fps = checkInt("--fps", opts.fps ?? 30, 1, 240);
  const size = checkInt("--view", opts.view ?? 640, 16, 8192);
  const viewSize = checkInt("--view-size", opts.viewSize ?? 640, 16, 8192);
  const jobs = Math.max(1, Math.floor(opts.jobs ?? availableParallelism()));

  const found = await findEpisode(opts.episodes, opts.episode, opts.format);
  if (found.format === "example") return generateSlideshow(found, opts, { fps, size });
  if (!opts.tasks || !opts.panos) {
    throw new GeoreplayError(`${found.file}:${found.line}: episode ${found.episode.episode_id} is a ${found.format === "train" ? "training rollout" : "recorded eval episode"}: --tasks and --panos are needed to re-render its views`);
  }
  return generateReplay(found, { ...opts, tasks: opts.tasks, panos: opts.panos }, { fps, size, viewSize, jobs });
}

/** Eval episodes and training rollouts: verify every view, then render the camera path. */
async function generateReplay(
  found: FoundEpisode,
  opts: FramesOptions & { tasks: string; panos: string },
  cfg: { fps: number; size: number; viewSize: number; jobs: number },
): Promise<FramesResult> {
  const { fps, size, viewSize, jobs } = cfg;
  const { episode, file, line } = found;
  // Eval traces record sha256 of the JPEG bytes; training traces 16 hex digits of sha256 over their base64 text.
  const scheme: HashScheme = found.scheme ?? "sha256";

  // 1. Inputs and plan.
  const tasks = TaskIndex.open(opts.tasks);
  const panos = openPanoDir(opts.panos);
  const where = `${file}:${line}: episode ${episode.episode_id}`;
  let row: TaskRow;
  try {
    row = (await tasks.lookup(episode.task.split, episode.task.index)).row;
  } catch (e) {
    throw new GeoreplayError(`${where}: ${errorMessage(e)}`);
  }
  let plan;
  try {
    plan = planEpisode(episode, { fps });
  } catch (e) {
    if (e instanceof PlanError) throw new GeoreplayError(`${file}:${line}: ${e.message}`);
    throw e;
  }

  // 2. Verify first: every view the model saw, at the size it saw it, with the record's digest scheme.
  const store = new PanoStore(panos);
  const vj = viewJobs(episode, row, panos, viewSize, scheme);
  if (vj.problems.length) throw new GeoreplayError(vj.problems.map((p) => `${where}: ${p.message}`).join("\n"));
  const outcomes = await verifyViews(vj.jobs, store);
  const errors = [...outcomes.values()].filter((o) => o.status === "error");
  if (errors.length) {
    // One line per distinct problem (a missing panorama usually affects several turns).
    const byError = new Map<string, number[]>();
    for (const o of errors) byError.set(o.error ?? "error", [...(byError.get(o.error ?? "error") ?? []), o.turn]);
    const lines = [...byError].map(([msg, turns]) => `${where} turn${turns.length > 1 ? "s" : ""} ${turns.join(", ")}: ${msg}`);
    throw new GeoreplayError(lines.join("\n"));
  }
  const drifted = [...outcomes.values()].filter((o) => o.status === "mismatch").sort((a, b) => a.turn - b.turn);
  if (drifted.length && !opts.unverified) {
    const what = scheme === "sha256" ? "hash" : "digest (16 hex digits of sha256 over the base64 text)";
    const lines = drifted.map((o) => {
      const c = vj.jobs.find((j) => j.turn === o.turn)!.camera;
      return `  turn ${o.turn}: camera heading ${c.heading_deg} pitch ${c.pitch_deg} fov ${c.fov_deg} frame ${c.frame_index} · recorded ${o.recorded.slice(0, 12)}… rendered ${(o.rendered ?? "").slice(0, 12)}…`;
    });
    throw new GeoreplayError(
      `${where}: ${drifted.length} view(s) drifted from the recorded ${what}; refusing to film views the model never saw (--unverified renders anyway, marked unverified):\n${lines.join("\n")}`,
      "drift",
    );
  }
  const verified = drifted.length === 0;

  // 3. Output folder.
  const out = openOutput(opts, episode.episode_id);
  const { framesPath, manifestPath } = out;
  const offSweep = onAbort(opts.signal, () => sweepTemps(framesPath));
  try {
    const old = readManifest(manifestPath);
    const manifest = new Map<string, { sha256: string; key: string }>();

    const panoSha = new Map<string, string>();
    const panoKey = (p: string): string => {
      let s = panoSha.get(p);
      if (!s) {
        const bytes = fileSha(p);
        if (!bytes) throw new GeoreplayError(`${where}: panorama ${p} is missing or unreadable`);
        panoSha.set(p, (s = bytes));
      }
      return s;
    };
    const taskFor = (job: FrameJob): RenderTask => {
      const frame = frameOf(row, { frame_index: job.frameIndex, heading_deg: job.pose.heading, pitch_deg: job.pose.pitch, fov_deg: job.pose.fov }, `${where}`);
      const view: ViewSpec = { headingDeg: job.pose.heading + (frame.compass_angle ?? 0), pitchDeg: job.pose.pitch, fovDeg: job.pose.fov, width: size, height: size };
      let pano: string;
      try {
        pano = panoPath(panos, frame.image_id, job.pose.fov);
      } catch (e) {
        throw new GeoreplayError(`${where}: ${errorMessage(e)}`);
      }
      return { path: join(framesPath, job.file), pano, view };
    };

    const total = plan.jobs.length;
    let done = 0;
    let reused = 0;
    const progress = () => opts.onProgress?.(done, total);
    const keyframeSha = new Map<string, string | null>();
    const pending: PendingRender[] = [];
    let keyframes = 0;
    for (const job of plan.jobs) {
      const target = join(framesPath, job.file);
      if (job.kind === "keyframe") {
        keyframes++;
        const outcome = outcomes.get(job.turn);
        if (size === viewSize && outcome?.jpeg) {
          // The exact bytes the model saw (or, when unverified, our render of that view). The timeline
          // gets their sha256, whatever digest the trace recorded.
          const bytes = outcome.jpeg;
          const sha = sha256(bytes);
          keyframeSha.set(job.file, outcome.status === "mismatch" ? null : sha);
          const key = `keyframe:${sha}`;
          if (old.files[job.file]?.sha256 === sha && fileSha(target) === sha) reused++;
          else await writeAtomic(target, bytes);
          manifest.set(job.file, { sha256: sha, key });
          done++;
          progress();
          continue;
        }
        keyframeSha.set(job.file, null); // another size than the model saw: a faithful render, not its bytes
      }
      const task = taskFor(job);
      const v = task.view;
      const key = `${RENDERER_TAG}:${panoKey(task.pano)}:${JSON.stringify([v.headingDeg, v.pitchDeg, v.fovDeg, v.width, v.height])}`;
      const prev = old.files[job.file];
      if (prev && prev.key === key && fileSha(target) === prev.sha256) {
        manifest.set(job.file, prev);
        reused++;
        done++;
        progress();
        continue;
      }
      pending.push({ file: job.file, task, key });
    }

    // Keep the manifest current while rendering, so an interrupted run's frames are reused next time.
    let sinceSave = 0;
    let saving: Promise<void> = Promise.resolve();
    const save = () => (saving = saving.then(() => writeAtomic(manifestPath, manifestText(manifest))).catch(() => undefined));
    throwIfAborted(opts.signal);
    await renderAll(pending, {
      panos,
      jobs,
      framesPath,
      signal: opts.signal,
      onDone: (item, sha) => {
        manifest.set(item.file, { sha256: sha, key: item.key });
        done++;
        progress();
        if (++sinceSave >= 48) {
          sinceSave = 0;
          void save();
        }
      },
    });
    await saving;
    throwIfAborted(opts.signal);
    await writeAtomic(manifestPath, manifestText(manifest));
    removeStale(framesPath, manifest);

    // 4. The timeline, last and atomically.
    const timeline = buildTimeline(plan, episode, row, {
      fps,
      width: size,
      height: size,
      framesDir: framesDirFor(out.outDir, out.publicDir),
      verified,
      keyframeSha,
      recordFormat: found.format,
      source: "replay",
    });
    await writeAtomic(out.timelinePath, JSON.stringify(timeline, null, 1) + "\n");

    const all = [...outcomes.values()];
    return {
      timelinePath: out.timelinePath,
      timeline,
      slug: out.slug,
      outDir: out.outDir,
      stats: {
        files: total,
        rendered: pending.length,
        reused,
        keyframes,
        views: {
          checked: all.length,
          match: all.filter((o) => o.status === "match" || o.status === "resolved").length,
          resolved: all.filter((o) => o.status === "resolved").length,
          mismatch: drifted.length,
        },
        recordedImages: 0,
      },
      warnings: [],
    };
  } finally {
    offSweep();
  }
}

/**
 * Example-rollout episodes: no camera trajectory and no hashes, so nothing is
 * re-rendered or verified. The recorded images become the frame files (view
 * JPEGs at the viewport size are copied byte for byte; maps and other sizes
 * are transcoded to JPEG at the viewport size) and crossfade into each other.
 */
async function generateSlideshow(found: FoundEpisode, opts: FramesOptions, cfg: { fps: number; size: number }): Promise<FramesResult> {
  const { episode, file, line } = found;
  const images = found.images ?? [];
  const where = `${file}:${line}: episode ${episode.episode_id}`;
  const warnings: string[] = [];
  const warn = (m: string) => {
    warnings.push(m);
    opts.onWarning?.(m);
  };
  const overwritten = images.length > 0 && !images[0].trustworthy;
  if (overwritten) {
    warn(`${where}: a later episode of task ${episode.task.index} in the same folder overwrote this episode's image files; the slideshow shows that episode's images, not this one's`);
  }
  for (const im of images) if (im.nameMismatch) warn(`${where}: turn ${im.turn}: the trace names another image file than ${im.path}; the naming rule's file is shown`);

  // Every recorded image must exist; its bytes identify identical images.
  const sourceSha = new Map<string, string>();
  const missing: string[] = [];
  for (const im of images) {
    const sha = fileSha(im.path);
    if (sha) sourceSha.set(im.path, sha);
    else missing.push(`${where}: turn ${im.turn}: recorded image ${im.path} is missing or unreadable`);
  }
  if (missing.length) throw new GeoreplayError(missing.join("\n"));

  let plan;
  try {
    plan = planSlideshow(episode, images, (p) => sourceSha.get(p)!, { fps: cfg.fps });
  } catch (e) {
    if (e instanceof PlanError) throw new GeoreplayError(`${file}:${line}: ${e.message}`);
    throw e;
  }

  // The task row is optional here: only the credit line and task id use it.
  let row: TaskRow | null = null;
  if (opts.tasks) {
    try {
      row = (await TaskIndex.open(opts.tasks).lookup(episode.task.split, episode.task.index)).row;
    } catch (e) {
      warn(`${where}: no task row for the credit line (${errorMessage(e)}); the imagery is credited without a creator`);
    }
  }

  const out = openOutput(opts, episode.episode_id);
  const { framesPath, manifestPath } = out;
  const offSweep = onAbort(opts.signal, () => sweepTemps(framesPath));
  try {
    const old = readManifest(manifestPath);
    const manifest = new Map<string, { sha256: string; key: string }>();
    const keyframeSha = new Map<string, string | null>();
    const total = plan.jobs.length;
    let done = 0;
    let reused = 0;
    let copied = 0;
    for (const job of plan.jobs) {
      const target = join(framesPath, job.file);
      const key = `${RECORDED_FRAME_TAG}:${job.sourceSha}:${cfg.size}`;
      const prev = old.files[job.file];
      let sha: string;
      let exact: boolean;
      if (prev && prev.key === key && fileSha(target) === prev.sha256) {
        sha = prev.sha256;
        exact = sha === job.sourceSha;
        reused++;
      } else {
        let frame;
        try {
          frame = await recordedFrame(job.image, cfg.size);
        } catch (e) {
          throw new GeoreplayError(`${where}: turn ${job.turn}: recorded image ${job.image.path}: ${errorMessage(e)}`);
        }
        await writeAtomic(target, frame.bytes);
        sha = sha256(frame.bytes);
        exact = frame.copied;
      }
      if (exact) copied++;
      // Byte for byte the recorded image, and that image is this episode's: only then is its sha256 a claim.
      keyframeSha.set(job.file, exact && !overwritten ? sha : null);
      manifest.set(job.file, { sha256: sha, key });
      done++;
      opts.onProgress?.(done, total);
    }
    await writeAtomic(manifestPath, manifestText(manifest));
    removeStale(framesPath, manifest);

    const timeline = buildTimeline(plan, episode, row, {
      fps: cfg.fps,
      width: cfg.size,
      height: cfg.size,
      framesDir: framesDirFor(out.outDir, out.publicDir),
      verified: false, // nothing to verify against: example-rollout folders record no hashes
      keyframeSha,
      recordFormat: "example",
      source: "slideshow",
      imagesOverwritten: overwritten,
    });
    await writeAtomic(out.timelinePath, JSON.stringify(timeline, null, 1) + "\n");
    return {
      timelinePath: out.timelinePath,
      timeline,
      slug: out.slug,
      outDir: out.outDir,
      stats: {
        files: total,
        rendered: total - reused,
        reused,
        keyframes: copied,
        views: emptyViews,
        recordedImages: images.length,
      },
      warnings,
    };
  } finally {
    offSweep();
  }
}


/** Digest of a whole output folder's frame files (for tests and the bench). */
export function framesDigest(framesPath: string): string {
  const h = createHash("sha256");
  for (const name of readdirSync(framesPath).sort()) if (/^\d{6}\.jpg$/.test(name)) h.update(name).update(readFileSync(join(framesPath, name)));
  return h.digest("hex");
}
