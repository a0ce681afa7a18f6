/**
 * `georeplay frames`: verify one episode's views, then render one
 * reprojection per video frame and write `timeline.json`.
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
import { UserError, EXIT_INPUT, EXIT_MISMATCH, errorMessage } from "../src/io/errors.ts";
import { readEpisodeRecords, recordProblem } from "../src/io/episodes.ts";
import { onInterrupt } from "../src/io/interrupt.ts";
import { openPanoDir, PanoError, PanoStore } from "../src/panos/store.ts";
import { TaskIndex } from "../src/tasks/task-index.ts";
import type { Episode } from "../src/schema/episode.ts";
import type { TaskRow } from "../src/schema/task.ts";
import type { ViewSpec } from "../src/render/reproject.ts";
import { viewJobs, frameOf, panoPath, type ViewJob } from "./view-jobs.ts";
import { checkView } from "../src/render/view.ts";
import type { Timeline } from "./timeline-schema.ts";
import { planEpisode, PlanError, type FrameJob } from "./segments.ts";
import { buildTimeline } from "./timeline.ts";
import { renderFrameFile, sha256, writeAtomic, type RenderTask } from "./frame-render.ts";

export interface FramesOptions {
  episodes: string[];
  /** episode_id, or "#n": the n-th replayable episode of the input (1-based, as `verify` counts). */
  episode: string;
  tasks: string;
  panos: string;
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
}

export interface FramesStats {
  files: number;
  rendered: number;
  reused: number;
  keyframes: number;
  views: { checked: number; match: number; resolved: number; mismatch: number };
}

export interface FramesResult {
  timelinePath: string;
  timeline: Timeline;
  slug: string;
  outDir: string;
  stats: FramesStats;
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
  if (!Number.isInteger(v) || v < min || v > max) throw new UserError(`${name}: expected a whole number in ${min}..${max}, got ${v}`, EXIT_INPUT);
  return v;
}

/** Finds one episode by id or by "#n" ordinal; says exactly why when it cannot. */
export async function findEpisode(files: string[], wanted: string): Promise<{ episode: Episode; file: string; line: number }> {
  const ord = /^#(\d+)$/.exec(wanted.trim());
  const ordinal = ord ? Number(ord[1]) : null;
  if (ordinal === 0) throw new UserError(`--episode ${wanted}: ordinals start at #1`, EXIT_INPUT);
  let n = 0;
  let invalid = 0;
  for await (const r of readEpisodeRecords(files)) {
    if (r.kind === "episode") {
      n++;
      if (ordinal !== null ? n === ordinal : r.episode.episode_id === wanted) return { episode: r.episode, file: r.file, line: r.line };
    } else if (r.kind === "errored") {
      if (ordinal === null && r.episodeId === wanted) {
        throw new UserError(`${r.file}:${r.line}: episode ${wanted} errored in the environment (${r.error}); it has no turns to replay`, EXIT_INPUT);
      }
    } else {
      invalid++;
      const problem = recordProblem(r);
      // An id we cannot read may be the one asked for: say so rather than "not found".
      if (ordinal === null && problem && problem.includes(JSON.stringify(wanted).slice(1, -1))) throw new UserError(problem, EXIT_INPUT);
    }
  }
  const what = ordinal !== null ? `episode #${ordinal}` : `episode ${JSON.stringify(wanted)}`;
  const extra = invalid ? `; ${invalid} line(s) were unreadable or invalid (run georeplay verify for details)` : "";
  throw new UserError(`${what} not found in ${files.join(", ")} (${n} replayable episode(s)${extra})`, EXIT_INPUT);
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
  opts: { panos: string; jobs: number; framesPath: string; onDone: (item: PendingRender, sha: string) => void },
): Promise<void> {
  if (items.length === 0) return;
  const workerFile = fileURLToPath(new URL("./frames-worker.js", import.meta.url));
  const compiled = import.meta.url.endsWith(".js") && existsSync(workerFile);
  const n = Math.min(opts.jobs, items.length);
  if (n <= 1 || !compiled) {
    const store = new PanoStore(opts.panos, 512 * 1024 * 1024);
    for (const it of items) opts.onDone(it, await renderFrameFile(store, it.task));
    return;
  }
  const workers: Worker[] = [];
  // On SIGINT/SIGTERM: stop the workers first, then remove the temp file any of them was writing.
  const off = onInterrupt(async () => {
    await Promise.all(workers.map((w) => w.terminate()));
    sweepTemps(opts.framesPath);
  });
  try {
    let next = 0;
    await new Promise<void>((resolveAll, reject) => {
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
  for (const name of names) if (name.startsWith(".") && name.includes(".tmp-")) rmSync(join(framesPath, name), { force: true });
}

export async function generateFrames(opts: FramesOptions): Promise<FramesResult> {
  const fps = checkInt("--fps", opts.fps ?? 30, 1, 240);
  const size = checkInt("--view", opts.view ?? 640, 16, 8192);
  const viewSize = checkInt("--view-size", opts.viewSize ?? 640, 16, 8192);
  const jobs = Math.max(1, Math.floor(opts.jobs ?? availableParallelism()));

  // 1. Inputs and plan.
  const tasks = TaskIndex.open(opts.tasks);
  const panos = openPanoDir(opts.panos);
  const { episode, file, line } = await findEpisode(opts.episodes, opts.episode);
  const where = `${file}:${line}: episode ${episode.episode_id}`;
  let row: TaskRow;
  try {
    row = (await tasks.lookup(episode.task.split, episode.task.index)).row;
  } catch (e) {
    throw new UserError(`${where}: ${errorMessage(e)}`, EXIT_INPUT);
  }
  let plan;
  try {
    plan = planEpisode(episode, { fps });
  } catch (e) {
    if (e instanceof PlanError) throw new UserError(`${file}:${line}: ${e.message}`, EXIT_INPUT);
    throw e;
  }

  // 2. Verify first: every view the model saw, at the size it saw it.
  const store = new PanoStore(panos);
  const vj = viewJobs(episode, row, panos, viewSize, "sha256");
  if (vj.problems.length) throw new UserError(vj.problems.map((p) => `${where}: ${p.message}`).join("\n"), EXIT_INPUT);
  const outcomes = await verifyViews(vj.jobs, store);
  const errors = [...outcomes.values()].filter((o) => o.status === "error");
  if (errors.length) {
    // One line per distinct problem (a missing panorama usually affects several turns).
    const byError = new Map<string, number[]>();
    for (const o of errors) byError.set(o.error ?? "error", [...(byError.get(o.error ?? "error") ?? []), o.turn]);
    const lines = [...byError].map(([msg, turns]) => `${where} turn${turns.length > 1 ? "s" : ""} ${turns.join(", ")}: ${msg}`);
    throw new UserError(lines.join("\n"), EXIT_INPUT);
  }
  const drifted = [...outcomes.values()].filter((o) => o.status === "mismatch").sort((a, b) => a.turn - b.turn);
  if (drifted.length && !opts.unverified) {
    const lines = drifted.map((o) => {
      const c = vj.jobs.find((j) => j.turn === o.turn)!.camera;
      return `  turn ${o.turn}: camera heading ${c.heading_deg} pitch ${c.pitch_deg} fov ${c.fov_deg} frame ${c.frame_index} · recorded ${o.recorded.slice(0, 12)}… rendered ${(o.rendered ?? "").slice(0, 12)}…`;
    });
    throw new UserError(
      `${where}: ${drifted.length} view(s) drifted from the recorded hash; refusing to film views the model never saw (--unverified renders anyway, marked unverified):\n${lines.join("\n")}`,
      EXIT_MISMATCH,
    );
  }
  const verified = drifted.length === 0;

  // 3. Output folder; an old timeline goes first, so an interrupted run never leaves one that points at changed frames.
  const slug = slugFor(episode.episode_id);
  const publicDir = resolve(opts.publicDir ?? join(process.cwd(), "public"));
  const outDir = resolve(opts.out ?? join(publicDir, "rollouts", slug));
  const framesPath = join(outDir, "frames");
  const timelinePath = join(outDir, "timeline.json");
  const manifestPath = join(framesPath, "manifest.json");
  mkdirSync(framesPath, { recursive: true });
  rmSync(timelinePath, { force: true });
  const offSweep = onInterrupt(() => sweepTemps(framesPath));
  try {
    const old = readManifest(manifestPath);
    const manifest = new Map<string, { sha256: string; key: string }>();

    const panoSha = new Map<string, string>();
    const panoKey = (p: string): string => {
      let s = panoSha.get(p);
      if (!s) {
        const bytes = fileSha(p);
        if (!bytes) throw new UserError(`${where}: panorama ${p} is missing or unreadable`, EXIT_INPUT);
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
        throw new UserError(`${where}: ${errorMessage(e)}`, EXIT_INPUT);
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
          // The exact bytes the model saw (or, when unverified, our render of that view).
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
    await renderAll(pending, {
      panos,
      jobs,
      framesPath,
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
    await writeAtomic(manifestPath, manifestText(manifest));

    // Frames of an older, longer plan and temp files of interrupted runs are removed.
    for (const name of readdirSync(framesPath)) {
      const stale = (/^\d{6}\.jpg$/.test(name) && !manifest.has(name)) || (name.startsWith(".") && name.includes(".tmp-"));
      if (stale) rmSync(join(framesPath, name), { force: true });
    }

    // 4. The timeline, last and atomically.
    const timeline = buildTimeline(plan, episode, row, {
      fps,
      width: size,
      height: size,
      framesDir: framesDirFor(outDir, publicDir),
      verified,
      keyframeSha,
    });
    await writeAtomic(timelinePath, JSON.stringify(timeline, null, 1) + "\n");

    const all = [...outcomes.values()];
    return {
      timelinePath,
      timeline,
      slug,
      outDir,
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
      },
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
