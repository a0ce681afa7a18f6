/**
 * Training-run generator for scale (issue 40): a deterministic GRPO run of
 * 1,000 steps x 8 tasks x 16 generations = 128,000 rollouts, in the
 * environment's training-trace format, that `georeplay verify` passes.
 *
 *   node dist/bench/training/make.js [--out DIR] [--steps 1000] [--tasks-per-step 8]
 *                                    [--generations 16] [--ranks 4] [--pool 64] [--jobs N]
 *
 * Output (default DIR: bench/.cache/training-v<version>-<steps>x<tasks>x<gens>-r<ranks>-p<pool>,
 * built once, reused while its DONE file exists; the same bytes every time):
 *   DIR/traces/rollouts-rank<R>.jsonl   the rollouts, split over the ranks as a trainer writes them
 *   DIR/tasks.jsonl                     task index (the pool: split "train", 2 frames each)
 *   DIR/panos/<image_id>.jpg            synthetic 2048x1024 panoramas (bench/board/pano.ts)
 *   DIR/hashes/<task>.json              rendered view digests per task (an interrupted build resumes)
 *   DIR/DONE                            the shape it was built with (JSON)
 *
 * Views: 2,048 distinct by default (64 pool tasks x 32 camera poses; shape.ts says why the
 * run is bounded so): ~1 min of rendering on 2 cores, then ~1 min writing ~128,000 lines.
 * Ranks: each step's 8 x 16 rollouts go out in chunks of 8 (a per-device batch), chunk c to
 * rank c mod 4, as accelerate splits a repeated-prompt batch: every group spans two rank files.
 * The dynamics (rewards, zero-spread share rising over steps, turn counts) are in rollouts.ts.
 *
 * From code: `await ensureTrainingRun({ ...DEFAULT_TRAINING })` -> { dir, traces, files, tasks, panos, rollouts, views }.
 */
import { Worker } from "node:worker_threads";
import { existsSync, mkdirSync, writeFileSync, readFileSync, rmSync, createWriteStream, renameSync, type WriteStream } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { availableParallelism } from "node:os";
import { parseArgs } from "node:util";
import { once } from "node:events";
import { taskCountry, taskLatLon } from "../board/make.ts";
import { DEFAULT_TRAINING, FRAMES_PER_TASK, GENERATOR_VERSION, SPLIT, compassAngle, imageId, stepTasks, type TrainingShape } from "./shape.ts";
import { rolloutLine } from "./rollouts.ts";

const HERE = dirname(fileURLToPath(import.meta.url));
// dist/bench/training -> repo root, or bench/training from sources
const ROOT = join(HERE, "..", "..", ...(HERE.includes(`${"/"}dist${"/"}`) ? [".."] : []));

/** Rollouts a trainer hands one device at a time (the chunk that goes to one rank). */
const PER_DEVICE_BATCH = 8;

export interface BuiltTrainingRun {
  dir: string;
  /** The folder to point `georeplay groups` / `verify` / `page` at (its rollouts*.jsonl). */
  traces: string;
  files: string[];
  tasks: string;
  panos: string;
  rollouts: number;
  /** Distinct rendered views. */
  views: number;
  shape: TrainingShape;
}

export function defaultTrainingDir(s: TrainingShape): string {
  return join(ROOT, "bench", ".cache", `training-v${GENERATOR_VERSION}-${s.steps}x${s.tasksPerStep}x${s.generations}-r${s.ranks}-p${s.pool}`);
}

export async function ensureTrainingRun(
  shape: TrainingShape = DEFAULT_TRAINING,
  opts: { out?: string; jobs?: number; log?: (s: string) => void } = {},
): Promise<BuiltTrainingRun> {
  if (shape.pool % shape.tasksPerStep !== 0) throw new Error(`--pool (${shape.pool}) must be a multiple of --tasks-per-step (${shape.tasksPerStep})`);
  const dir = opts.out ?? defaultTrainingDir(shape);
  const traces = join(dir, "traces");
  const files = Array.from({ length: shape.ranks }, (_, r) => join(traces, `rollouts-rank${r}.jsonl`));
  const built: BuiltTrainingRun = {
    dir,
    traces,
    files,
    tasks: join(dir, "tasks.jsonl"),
    panos: join(dir, "panos"),
    rollouts: shape.steps * shape.tasksPerStep * shape.generations,
    views: 0,
    shape,
  };
  const done = join(dir, "DONE");
  const stamp = JSON.stringify({ version: GENERATOR_VERSION, ...shape });
  const hashesOf = () => Object.assign({}, ...Array.from({ length: shape.pool }, (_, t) => JSON.parse(readFileSync(join(dir, "hashes", `${t}.json`), "utf8"))));
  if (existsSync(done) && readFileSync(done, "utf8") === stamp) return { ...built, views: Object.keys(hashesOf()).length };
  const log = opts.log ?? ((s: string) => process.stderr.write(s + "\n"));
  rmSync(traces, { recursive: true, force: true });
  mkdirSync(built.panos, { recursive: true });
  writeTasks(built.tasks, shape);
  const t0 = performance.now();
  const hashes = await renderAll(shape, built.panos, opts.jobs ?? availableParallelism(), log);
  built.views = Object.keys(hashes).length;
  log(`training: ${built.views} distinct views rendered in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  await writeRollouts(traces, files, shape, hashes);
  writeFileSync(done, stamp);
  log(`training: ${built.rollouts} rollouts in ${traces} after ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  return built;
}

function writeTasks(file: string, shape: TrainingShape): void {
  const lines: string[] = [];
  for (let t = 0; t < shape.pool; t++) {
    const [lat, lon] = taskLatLon(t);
    const frames = Array.from({ length: FRAMES_PER_TASK }, (_, f) => ({
      image_id: imageId(t, f),
      lat: lat + f * 1e-4,
      lon: lon + f * 1e-4,
      compass_angle: compassAngle(t, f),
      captured_at: "2024-08",
      is_pano: true,
    }));
    lines.push(
      JSON.stringify({
        task_index: t,
        task_id: `${SPLIT}-${String(t).padStart(3, "0")}`,
        country: taskCountry(t),
        sequence_id: `trainseq${t}`,
        provider: "mapillary",
        start_frame: 0,
        frames,
        attribution: { creator_username: "synthetic", creator_id: "0", licence: "CC-BY-SA-4.0", source: "Mapillary" },
      }),
    );
  }
  writeFileSync(file, lines.join("\n") + "\n");
}

async function renderAll(shape: TrainingShape, panos: string, jobs: number, log: (s: string) => void): Promise<Record<string, string>> {
  const workerFile = join(HERE, import.meta.url.endsWith(".ts") ? "render-worker.ts" : "render-worker.js");
  const n = Math.max(1, Math.min(jobs, shape.pool));
  const parts: number[][] = Array.from({ length: n }, () => []);
  for (let t = 0; t < shape.pool; t++) parts[t % n].push(t);
  let rendered = 0;
  const results = await Promise.all(
    parts.map(
      (tasks) =>
        new Promise<Record<string, string>>((resolve, reject) => {
          const w = new Worker(workerFile, { workerData: { tasks, viewSize: shape.viewSize, panos } });
          w.on("message", (m: { kind: string; hashes?: Record<string, string>; message?: string }) => {
            if (m.kind === "progress") {
              if (++rendered % 16 === 0) log(`training: ${rendered}/${shape.pool} pool tasks rendered`);
            } else if (m.kind === "done") resolve(m.hashes!);
            else reject(new Error(m.message));
          });
          w.on("error", reject);
        }),
    ),
  );
  return Object.assign({}, ...results);
}

/** Every rollout, step by step, each per-device chunk to its rank's file; files appear complete or not at all. */
async function writeRollouts(traces: string, files: string[], shape: TrainingShape, hashes: Record<string, string>): Promise<void> {
  mkdirSync(traces, { recursive: true });
  const outs: WriteStream[] = files.map((f) => createWriteStream(`${f}.tmp-${process.pid}`));
  for (let step = 0; step < shape.steps; step++) {
    const tasks = stepTasks(shape, step);
    for (let j = 0; j < tasks.length; j++) {
      for (let g = 0; g < shape.generations; g++) {
        const n = j * shape.generations + g;
        const out = outs[Math.floor(n / PER_DEVICE_BATCH) % shape.ranks];
        if (!out.write(rolloutLine(shape, hashes, step, tasks[j], g) + "\n")) await once(out, "drain");
      }
    }
  }
  for (const out of outs) {
    out.end();
    await once(out, "finish");
  }
  files.forEach((f) => renameSync(`${f}.tmp-${process.pid}`, f));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({
    options: {
      out: { type: "string" },
      steps: { type: "string", default: String(DEFAULT_TRAINING.steps) },
      "tasks-per-step": { type: "string", default: String(DEFAULT_TRAINING.tasksPerStep) },
      generations: { type: "string", default: String(DEFAULT_TRAINING.generations) },
      ranks: { type: "string", default: String(DEFAULT_TRAINING.ranks) },
      pool: { type: "string", default: String(DEFAULT_TRAINING.pool) },
      jobs: { type: "string", default: String(availableParallelism()) },
    },
  });
  const shape: TrainingShape = {
    ...DEFAULT_TRAINING,
    steps: Number(values.steps),
    tasksPerStep: Number(values["tasks-per-step"]),
    generations: Number(values.generations),
    ranks: Number(values.ranks),
    pool: Number(values.pool),
  };
  const b = await ensureTrainingRun(shape, { out: values.out, jobs: Number(values.jobs) });
  process.stdout.write(JSON.stringify(b, null, 2) + "\n");
}
