/**
 * `frames` on a crops episode: find it, verify every view and thumbnail against its recorded
 * sha256 (drift aborts unless `unverified`), then write the recorded views as exact keyframe
 * files, the in-between frames of each camera move (the same bicubic renderer, boxes outlined
 * as the gym draws them) and, last and atomically, `timeline.json`. Every input problem is
 * found before anything is written.
 */
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { GeoreplayError, throwIfAborted } from "../../../replay/io/errors.ts";
import { readJsonl } from "../../../replay/io/jsonl.ts";
import { writeAtomic } from "../../../replay/io/atomic.ts";
import { decodeRgb, openDataset, taskOf } from "./dataset.ts";
import { fitSize, VIEW_LONG } from "./geometry.ts";
import { datasetFor, recordEnv, runFiles } from "./inputs.ts";
import { encodeView, renderThumb, renderView, sha256Hex, thumbBase, type RgbImage } from "./render.ts";
import { CropsRecordSchema, parseOrThrow, type CropsRecord } from "./schema.ts";
import { CropsTimelineSchema, type CropsTimeline } from "./frames-timeline.ts";
import { outcomeOf, planFrames } from "./frames-plan.ts";

export interface CropsFramesOptions {
  inputs: string[];
  /** episode_id, or "#n" for the n-th record of the run. */
  episode: string;
  dataset?: string;
  /** Output folder; when empty, `outFor(episode_id)`. */
  out: string;
  outFor?: (episodeId: string) => string;
  fps: number;
  unverified?: boolean;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
  /** Also write each turn's thumbnail (the bytes verified against thumb_sha256) as `frames/thumb-NN.jpg` (a video shows them). */
  thumbs?: boolean;
}

export interface CropsFramesResult {
  outDir: string;
  timelinePath: string;
  timeline: CropsTimeline;
  /** Turns checked, and the turns whose view or thumbnail drifted. */
  checked: number;
  drifted: number[];
  keyframes: number;
  inBetween: number;
  /** With `thumbs`: each turn's thumbnail file (relative to outDir), in record order. */
  thumbFiles: string[];
  /** The record the frames were made from (validated). */
  record: CropsRecord;
}

/** One record by id or "#n" (n-th record across the run's files); the error says what there is. */
export async function findCropsEpisode(files: string[], wanted: string): Promise<{ rec: CropsRecord; file: string; line: number }> {
  const ord = /^#(\d+)$/.exec(wanted.trim());
  const ordinal = ord ? Number(ord[1]) : null;
  if (ordinal === 0) throw new GeoreplayError(`--episode ${wanted}: ordinals start at #1`);
  let n = 0;
  for (const file of files) {
    for await (const item of readJsonl(file)) {
      if (item.kind === "error") throw new GeoreplayError(`${file}:${item.line}: ${item.message}`);
      recordEnv(item.value, file, item.line);
      n++;
      const id = (item.value as { episode_id?: unknown }).episode_id;
      if (ordinal !== null ? n === ordinal : id === wanted) return { rec: parseOrThrow(CropsRecordSchema, item.value, file, item.line), file, line: item.line };
    }
  }
  const what = ordinal !== null ? `episode #${ordinal}` : `episode ${JSON.stringify(wanted)}`;
  throw new GeoreplayError(`${what} not found in ${files.join(", ")} (${n} crops episode(s))`);
}

const short = (h: string) => `${h.slice(0, 12)}…`;

export async function cropsFrames(o: CropsFramesOptions): Promise<CropsFramesResult> {
  const files = runFiles(o.inputs);
  const dsDir = datasetFor(files, o.dataset);
  const { rec, file, line } = await findCropsEpisode(files, o.episode);
  const at = `${file}:${line}`;
  const ds = await openDataset(dsDir);
  const task = taskOf(ds, rec.task.split, rec.task.index);
  if (!task)
    throw new GeoreplayError(
      `${at}: task: expected a row of ${ds.tasksFile} with split ${JSON.stringify(rec.task.split)} and task_index ${rec.task.index}, got none`,
    );
  if (task.image_id !== rec.task.image_id)
    throw new GeoreplayError(
      `${at}: task.image_id: expected ${JSON.stringify(task.image_id)} (${ds.tasksFile}:${task.line}), got ${JSON.stringify(rec.task.image_id)}`,
    );
  const imagePath = join(ds.dir, task.file);
  const img: RgbImage = await decodeRgb(imagePath).catch((e: Error) => {
    const why = e.message.startsWith(`${imagePath}: `) ? e.message.slice(imagePath.length + 2) : e.message;
    throw new GeoreplayError(`${at}: task.image_id: expected the image ${imagePath} (${ds.tasksFile}:${task.line}), got ${why}`);
  });
  const { width: iw, height: ih } = img;
  if (iw !== task.width || ih !== task.height)
    throw new GeoreplayError(`${imagePath}: expected ${task.width}x${task.height} pixels (${ds.tasksFile}:${task.line}), got ${iw}x${ih}`);
  rec.turns.forEach((t, i) => {
    for (const field of ["view_before", "view_after"] as const) {
      const v = t[field];
      if (v[0] < 0 || v[1] < 0 || v[2] > iw || v[3] > ih)
        throw new GeoreplayError(`${at}: turns[${i}].${field}: expected a view inside the ${iw}x${ih} image, got [${v.join(", ")}]`);
    }
  });
  const [W, H] = fitSize(iw, ih, VIEW_LONG);
  const out = o.out || (o.outFor ?? ((id: string) => id))(rec.episode_id);

  // 1. Verify: every turn's view (the keyframe bytes) and thumbnail, before anything is written.
  const thumbs = thumbBase(img);
  const keyBytes: Buffer[] = [];
  const thumbBytes: Buffer[] = [];
  const drifted: string[] = [];
  const driftedTurns: number[] = [];
  for (const t of rec.turns) {
    throwIfAborted(o.signal);
    const [view, thumb] = await Promise.all([
      encodeView(renderView(img, t.view_after, t.boxes, W, H), W, H),
      encodeView(renderThumb(thumbs, t.view_after, iw, ih), thumbs.width, thumbs.height),
    ]);
    keyBytes.push(view);
    thumbBytes.push(thumb);
    const v = sha256Hex(view);
    const th = sha256Hex(thumb);
    if (v !== t.image_sha256 || th !== t.thumb_sha256) {
      driftedTurns.push(t.turn);
      if (v !== t.image_sha256) drifted.push(`  turn ${t.turn}: view [${t.view_after.join(", ")}] · recorded ${short(t.image_sha256)} rendered ${short(v)}`);
      if (th !== t.thumb_sha256) drifted.push(`  turn ${t.turn}: thumbnail · recorded ${short(t.thumb_sha256)} rendered ${short(th)}`);
    }
  }
  if (driftedTurns.length && !o.unverified)
    throw new GeoreplayError(
      `${at}: episode ${rec.episode_id}: ${driftedTurns.length} turn(s) drifted from the recorded sha256; refusing to film views the model never saw (--unverified renders anyway, marked unverified):\n${drifted.join("\n")}`,
      "drift",
    );

  // 2. Plan, then write: keyframes, in-between frames, stale frames removed, timeline last.
  const plan = planFrames(rec, o.fps, iw, ih);
  const framesDir = join(out, "frames");
  const timelinePath = join(out, "timeline.json");
  mkdirSync(framesDir, { recursive: true });
  rmSync(timelinePath, { force: true }); // never a timeline pointing at frames being rewritten
  const total = plan.keyframes.length + plan.inBetween.length;
  let done = 0;
  const keyframes: CropsTimeline["keyframes"] = [];
  for (const [i, k] of plan.keyframes.entries()) {
    await writeAtomic(join(out, k.file), keyBytes[i]);
    keyframes.push({ ...k, sha256: sha256Hex(keyBytes[i]), recordedSha256: rec.turns[i].image_sha256 });
    o.onProgress?.(++done, total);
  }
  // In-between frames: resized on this thread, encoded on sharp's threads, a few in flight.
  const inFlight: Promise<void>[] = [];
  for (const f of plan.inBetween) {
    throwIfAborted(o.signal);
    const px = renderView(img, f.camera, f.boxes, W, H);
    const p = encodeView(px, W, H)
      .then((b) => writeAtomic(join(out, f.file), b))
      .then(() => o.onProgress?.(++done, total));
    p.catch(() => undefined); // awaited below; never an unhandled rejection meanwhile
    inFlight.push(p);
    if (inFlight.length >= 4) await inFlight.shift();
  }
  await Promise.all(inFlight);
  const thumbFiles = o.thumbs ? rec.turns.map((t) => `frames/thumb-${String(t.turn).padStart(2, "0")}.jpg`) : [];
  for (const [i, f] of thumbFiles.entries()) await writeAtomic(join(out, f), thumbBytes[i]);
  const wanted = new Set([...plan.keyframes, ...plan.inBetween].map((f) => f.file.slice("frames/".length)));
  for (const f of thumbFiles) wanted.add(f.slice("frames/".length));
  for (const name of readdirSync(framesDir)) if (name.endsWith(".jpg") && !wanted.has(name)) rmSync(join(framesDir, name), { force: true });

  const timeline = CropsTimelineSchema.parse({
    version: 1,
    env: "crops",
    fps: o.fps,
    viewport: { width: W, height: H },
    image: { id: task.image_id, width: iw, height: ih },
    totalFrames: plan.frames.length,
    framesDir: "frames",
    episode: {
      episodeId: rec.episode_id,
      modelName: typeof rec.model_name === "string" ? rec.model_name : null,
      split: rec.task.split,
      index: rec.task.index,
      verified: driftedTurns.length === 0,
      drifted: driftedTurns,
    },
    keyframes,
    frames: plan.frames,
    turns: plan.turns,
    outcome: outcomeOf(rec),
  } satisfies CropsTimeline);
  await writeAtomic(timelinePath, JSON.stringify(timeline) + "\n");
  return {
    outDir: out,
    timelinePath,
    timeline,
    checked: rec.turns.length,
    drifted: driftedTurns,
    keyframes: keyframes.length,
    inBetween: plan.inBetween.length,
    thumbFiles,
    record: rec,
  };
}
