/**
 * Board generator for scale: a deterministic synthetic pass@k board shaped
 * like the published one (16 arms x 200 tasks x k=4 = 12,800 episodes).
 *
 *   node dist/bench/board/make.js [--out DIR] [--arms 16] [--tasks 200] [--k 4]
 *                                 [--line-kb 95] [--jobs N] [--placeholder-hashes]
 *
 * Output (default DIR: bench/.cache/board-v<version>-<arms>x<tasks>x<k>-<kb>kb, built once,
 * reused while its DONE file exists):
 *   DIR/board/<arm>/pass<N>/episodes.jsonl   eval episodes (schema 2), one arm per folder,
 *                                            N = 0..k-1; each line ~line-kb KB of JSON (replies,
 *                                            reasoning, prompts), as on the real board (~95 KB)
 *   DIR/tasks.jsonl                          task index (200 tasks x 3 frames)
 *   DIR/panos/<image_id>.jpg                 synthetic 2048x1024 panoramas, 1 in 8 also .orig.jpg
 *                                            (4096x2048, sampled at fov <= 45)
 *   DIR/hashes/<task>.json                   rendered view digests per task (an interrupted build resumes)
 *   DIR/DONE                                 the shape it was built with (JSON)
 * Views: each task's start view repeats across all its attempts; every other view (look, zoom,
 * move) belongs to one episode: ~20,000 distinct views. Their image_sha256 come from georeplay's
 * own renderer (this board measures scale, not fidelity), rendered on worker threads.
 * About 1 row in 700 is an errored row (no outcome), 1 in 60 has no guess, 1 in 25 a forced guess.
 * Truths lie in twelve countries on every continent; guesses spread as a real board's do: near
 * the truth (closer for a stronger arm) or, for 10-28% of attempts, on another continent, with
 * each attempt's pins around its guess (bench/board-page.ts reports the map frames this gives).
 *
 * --placeholder-hashes: no panoramas, no rendering; image_sha256 = sha256 of the view's key. Same
 * episodes, sizes and view counts in minutes instead of an hour of rendering, for benchmarks that
 * only read episodes (report, board pages); `verify` on it reports every view as drift.
 * Cached separately (DIR gets a `-placeholder` suffix).
 *
 * From code: `await ensureBoard({ ...DEFAULT_SHAPE }, { placeholderHashes })` -> { dir, root, tasks, panos, episodes }.
 */
import { Worker } from "node:worker_threads";
import { existsSync, mkdirSync, writeFileSync, readFileSync, rmSync, createWriteStream, renameSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { availableParallelism } from "node:os";
import { parseArgs } from "node:util";
import { once } from "node:events";
import { createHash } from "node:crypto";
import {
  DEFAULT_SHAPE,
  FRAMES_PER_TASK,
  GENERATOR_VERSION,
  START_CAMERA,
  armName,
  compassAngle,
  episodeViews,
  imageId,
  unit,
  viewKey,
  type BoardShape,
} from "./shape.ts";

const HERE = dirname(fileURLToPath(import.meta.url));
// dist/bench/board -> repo root, or bench/board from sources
const ROOT = join(HERE, "..", "..", ...(HERE.includes(`${"/"}dist${"/"}`) ? [".."] : []));

export interface BuiltBoard {
  dir: string;
  /** The folder to point `georeplay report` / `verify` at. */
  root: string;
  tasks: string;
  panos: string;
  episodes: number;
  shape: BoardShape;
}

export function defaultBoardDir(shape: BoardShape, placeholderHashes = false): string {
  const name = `board-v${GENERATOR_VERSION}-${shape.arms}x${shape.tasks}x${shape.k}-${Math.round(shape.lineBytes / 1000)}kb${placeholderHashes ? "-placeholder" : ""}`;
  return join(ROOT, "bench", ".cache", name);
}

/** Every distinct view key of the board, without rendering: sha256 of the key stands in for the image's. */
function placeholderHashes(shape: BoardShape): Record<string, string> {
  const out: Record<string, string> = {};
  for (let t = 0; t < shape.tasks; t++) {
    out[viewKey(t, START_CAMERA)] = createHash("sha256").update(viewKey(t, START_CAMERA)).digest("hex");
    for (let a = 0; a < shape.arms; a++)
      for (let p = 0; p < shape.k; p++)
        for (const v of episodeViews(a, p, t)) out[viewKey(t, v.camera)] = createHash("sha256").update(viewKey(t, v.camera)).digest("hex");
  }
  return out;
}

export async function ensureBoard(
  shape: BoardShape = DEFAULT_SHAPE,
  opts: { out?: string; jobs?: number; placeholderHashes?: boolean; log?: (s: string) => void } = {},
): Promise<BuiltBoard> {
  const placeholder = opts.placeholderHashes ?? false;
  const dir = opts.out ?? defaultBoardDir(shape, placeholder);
  const built: BuiltBoard = {
    dir,
    root: join(dir, "board"),
    tasks: join(dir, "tasks.jsonl"),
    panos: join(dir, "panos"),
    episodes: shape.arms * shape.tasks * shape.k,
    shape,
  };
  const done = join(dir, "DONE");
  const stamp = JSON.stringify({ version: GENERATOR_VERSION, ...shape, placeholderHashes: placeholder });
  if (existsSync(done) && readFileSync(done, "utf8") === stamp) return built;
  const log = opts.log ?? ((s: string) => process.stderr.write(s + "\n"));
  rmSync(built.root, { recursive: true, force: true });
  mkdirSync(built.panos, { recursive: true });
  writeTasks(built.tasks, shape);
  const t0 = performance.now();
  const hashes = placeholder ? placeholderHashes(shape) : await renderAll(shape, built.panos, opts.jobs ?? availableParallelism(), log);
  log(`board: ${Object.keys(hashes).length} distinct views rendered in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  await writeEpisodes(built.root, shape, hashes);
  writeFileSync(done, stamp);
  log(`board: ${built.episodes} episodes under ${built.root} in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  return built;
}

/** Each task's country and roughly where in it (every continent): its truth lies within a few degrees of it. */
const COUNTRY_AT: [string, number, number][] = [
  ["France", 46.6, 2.4],
  ["Brazil", -12.0, -50.0],
  ["Japan", 36.5, 138.5],
  ["Kenya", 0.2, 37.9],
  ["Canada", 52.0, -100.0],
  ["Australia", -25.0, 134.0],
  ["India", 22.0, 79.0],
  ["Norway", 61.5, 9.5],
  ["Mexico", 23.0, -102.0],
  ["Poland", 52.0, 19.3],
  ["Chile", -33.5, -70.8],
  ["Thailand", 15.5, 101.0],
];
const COUNTRIES = COUNTRY_AT.map((c) => c[0]);
/** The country of task `t` (its truth lies in it: taskLatLon). */
export const taskCountry = (t: number): string => COUNTRIES[t % COUNTRIES.length];

/**
 * Where arms guess when they miss the continent: places on every continent, as a real board's
 * wrong guesses are (its tasks' countries and more), so the page's maps take the frames users'
 * boards give them rather than one cluster.
 */
const FAR_GUESSES: [number, number][] = [
  ...COUNTRY_AT.map(([, lat, lon]): [number, number] => [lat, lon]),
  [39.5, -98.0], // United States
  [35.0, 103.0], // China
  [-29.0, 24.5], // South Africa
  [-34.5, -64.0], // Argentina
  [26.5, 30.0], // Egypt
  [56.0, 45.0], // Russia
  [-2.5, 118.0], // Indonesia
  [40.2, -3.7], // Spain
  [9.1, 8.7], // Nigeria
  [-41.3, 173.0], // New Zealand
  [4.6, -74.1], // Colombia
  [39.0, 35.0], // Turkey
];

const r6 = (x: number) => Math.round(x * 1e6) / 1e6;

export function taskLatLon(t: number): [number, number] {
  const [, lat, lon] = COUNTRY_AT[t % COUNTRY_AT.length];
  return [r6(lat + (unit(`lat:${t}`) - 0.5) * 6), r6(lon + (unit(`lon:${t}`) - 0.5) * 8)];
}

const EARTH_KM = 6371.0088;
const RAD = Math.PI / 180;

/** The point `km` from `from` along `bearingDeg` (great circle). */
function destination(from: [number, number], km: number, bearingDeg: number): [number, number] {
  const d = km / EARTH_KM;
  const b = bearingDeg * RAD;
  const la1 = from[0] * RAD;
  const lo1 = from[1] * RAD;
  const la2 = Math.asin(Math.sin(la1) * Math.cos(d) + Math.cos(la1) * Math.sin(d) * Math.cos(b));
  const lo2 = lo1 + Math.atan2(Math.sin(b) * Math.sin(d) * Math.cos(la1), Math.cos(d) - Math.sin(la1) * Math.sin(la2));
  return [r6(la2 / RAD), r6(((((lo2 / RAD + 540) % 360) + 360) % 360) - 180)];
}

export function haversine(a: [number, number], b: [number, number]): number {
  const h = Math.sin(((b[0] - a[0]) * RAD) / 2) ** 2 + Math.cos(a[0] * RAD) * Math.cos(b[0] * RAD) * Math.sin(((b[1] - a[1]) * RAD) / 2) ** 2;
  return 2 * EARTH_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * An attempt's guess: near the truth (an exponential miss, closer for a stronger arm, in a
 * seeded direction) or, for a share of attempts that falls with skill, on another continent.
 */
export function guessFor(key: string, truth: [number, number], skill: number): [number, number] {
  if (unit(`far:${key}`) < 0.35 - skill * 0.3) {
    const [lat, lon] = FAR_GUESSES[Math.floor(unit(`where:${key}`) * FAR_GUESSES.length)];
    return [r6(lat + (unit(`flat:${key}`) - 0.5) * 8), r6(lon + (unit(`flon:${key}`) - 0.5) * 10)];
  }
  const km = -Math.log(1 - unit(`d:${key}`) * 0.999) * 1500 * (1.2 - skill);
  return destination(truth, km, unit(`bearing:${key}`) * 360);
}

function writeTasks(file: string, shape: BoardShape): void {
  const lines: string[] = [];
  for (let t = 0; t < shape.tasks; t++) {
    const [lat, lon] = taskLatLon(t);
    const frames = [];
    for (let f = 0; f < FRAMES_PER_TASK; f++) {
      frames.push({
        image_id: imageId(t, f),
        lat: lat + f * 1e-4,
        lon: lon + f * 1e-4,
        compass_angle: compassAngle(t, f),
        captured_at: "2024-08",
        is_pano: true,
      });
    }
    lines.push(
      JSON.stringify({
        task_index: t,
        task_id: `board-${String(t).padStart(3, "0")}`,
        country: COUNTRIES[t % COUNTRIES.length],
        sequence_id: `seq${t}`,
        provider: "mapillary",
        start_frame: 0,
        frames,
        attribution: { creator_username: "synthetic", creator_id: "0", licence: "CC-BY-SA-4.0", source: "Mapillary" },
      }),
    );
  }
  writeFileSync(file, lines.join("\n") + "\n");
}

async function renderAll(shape: BoardShape, panos: string, jobs: number, log: (s: string) => void): Promise<Record<string, string>> {
  const workerFile = join(HERE, import.meta.url.endsWith(".ts") ? "render-worker.ts" : "render-worker.js");
  const n = Math.max(1, Math.min(jobs, shape.tasks));
  const parts: number[][] = Array.from({ length: n }, () => []);
  for (let t = 0; t < shape.tasks; t++) parts[t % n].push(t);
  let doneTasks = 0;
  const results = await Promise.all(
    parts.map(
      (tasks) =>
        new Promise<Record<string, string>>((resolve, reject) => {
          const w = new Worker(workerFile, { workerData: { tasks, shape, panos } });
          w.on("message", (m: { kind: string; hashes?: Record<string, string>; message?: string }) => {
            if (m.kind === "progress") {
              doneTasks++;
              if (doneTasks % 20 === 0) log(`board: ${doneTasks}/${shape.tasks} tasks rendered`);
            } else if (m.kind === "done") resolve(m.hashes!);
            else reject(new Error(m.message));
          });
          w.on("error", reject);
        }),
    ),
  );
  return Object.assign({}, ...results);
}

// A fixed vocabulary; each reply is a distinct walk through it, so no two lines are alike.
const WORDS = (
  "the road markings suggest a temperate climate with right-hand traffic and yellow centre lines " +
  "bollards signage script vegetation utility poles concrete kerbs architecture roofs terracotta " +
  "licence plates appear long and white so Europe is plausible although the sun angle hints south " +
  "I will look north to read the shop sign before committing to a guess near the coast " +
  'hemisphere latitude eucalyptus palm birch snow chevrons guardrail café straße ñandú 東京 «quoted» "double" tab\tnewline\n'
).split(" ");

function prose(label: string, bytes: number): string {
  let s = Math.floor(unit(label) * 2 ** 31) | 1;
  const out: string[] = [];
  let len = 0;
  while (len < bytes) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    const w = WORDS[(s >>> 0) % WORDS.length];
    out.push(w);
    len += w.length + 1;
  }
  return out.join(" ");
}

const TOOLS = ["look", "pan", "zoom", "move", "place_pin", "view_map", "list_pins", "clear_pins", "measure", "reverse_geocode", "submit_guess"];

function hex(label: string): string {
  let h = "";
  for (let i = 0; h.length < 64; i++)
    h += Math.floor(unit(`${label}:${i}`) * 2 ** 32)
      .toString(16)
      .padStart(8, "0");
  return h.slice(0, 64);
}

function episode(shape: BoardShape, a: number, p: number, t: number, hashes: Record<string, string>): Record<string, unknown> {
  const key = `${a}:${p}:${t}`;
  const arm = armName(a);
  const [lat, lon] = taskLatLon(t);
  const taskField = {
    split: "eval",
    index: t,
    sample: p,
    task_id: `board-${String(t).padStart(3, "0")}`,
    sequence_id: `seq${t}`,
    captured_at: "2024-08",
    country: COUNTRIES[t % COUNTRIES.length],
  };
  const base = {
    schema_version: 2,
    episode_id: hex(`ep:${key}`).slice(0, 12),
    recorded_at: "2026-11-01T00:00:00Z",
    model_name: arm,
    model: { provider: "openai", model: arm, max_tokens: 4000, temperature: 1.0, thinking: "off" },
    task: taskField,
    config: { mode: "agentic", prompt_version: "v2", max_turns: 12, retries: 3, base_url: "http://127.0.0.1:8000", street_detail: "off" },
  };
  if (unit(`err:${key}`) < 1 / 700) {
    return {
      ...base,
      error: "RuntimeError: session capacity exceeded",
      traceback: 'Traceback (most recent call last):\n  File "geoeval.py", line 1\nRuntimeError: session capacity exceeded',
    };
  }
  const views = episodeViews(a, p, t);
  const planned: Planned[] = [{ action: { action: "reset" }, camera: START_CAMERA, kind: "view" }];
  let cam = START_CAMERA;
  const skill = 0.25 + (a % 8) * 0.07;
  const guess = guessFor(key, [lat, lon], skill);
  for (const v of views) {
    planned.push({ action: v.action, camera: v.camera, kind: "view" });
    cam = v.camera;
    // Pins around where the attempt ends up guessing (its maps' frames follow its guesses).
    const pin = [r6(guess[0] + (unit(`pin:${key}:${planned.length}`) - 0.5) * 10), guess[1]];
    planned.push({ action: { action: "place_pin", lat: Math.max(-80, Math.min(80, pin[0])), lon: pin[1], span_deg: 2.0 }, camera: cam, kind: "map" });
  }
  const noGuess = unit(`ng:${key}`) < 1 / 60;
  const forced = !noGuess && unit(`fg:${key}`) < 1 / 25;
  const distance = noGuess ? null : Math.round(haversine([lat, lon], guess) * 1000) / 1000;
  while (planned.length < 10) planned.push({ action: { action: "view_map", span_deg: 8 }, camera: cam, kind: "map" });
  planned.push({ action: { action: "guess", lat: guess[0], lon: guess[1] }, camera: cam, kind: "map" });
  let perTurn = 0;
  const build = () => buildTurns(planned, key, arm, t, perTurn, hashes);
  // Size the replies so the line lands near lineBytes: measure the line without them, then fill.
  const bare = JSON.stringify(build()).length + 1500;
  perTurn = Math.max(50, Math.floor((shape.lineBytes - bare) / ((planned.length - 1) * 2.1 * 1.02)));
  const turns = build();
  const cost = turns[turns.length - 1].cost;
  return finish(
    base,
    turns.map((x) => x.turn),
    views,
    planned,
    cost,
    key,
    [lat, lon],
    guess,
    noGuess,
    forced,
    distance,
  );
}

type Planned = { action: Record<string, unknown>; camera: typeof START_CAMERA; kind: "view" | "map" };

function buildTurns(planned: Planned[], key: string, arm: string, t: number, perTurn: number, hashes: Record<string, string>) {
  let cost = 0;
  return planned.map((pl, i) => {
    cost = Math.round((cost + (i === 0 ? 0 : 0.01)) * 100) / 100;
    const before = i === 0 ? START_CAMERA : planned[i - 1].camera;
    const turn = {
      turn: i,
      status: "ok",
      camera_before: before,
      action: pl.action,
      camera_after: pl.camera,
      pins: [],
      image_kind: pl.kind,
      image_sha256: pl.kind === "view" ? hashes[viewKey(t, pl.camera)] : hex(`map:${key}:${i}`),
      feedback: i === 0 ? "Episode started." : `${12 - i} actions left.`,
      action_cost: i === 0 ? 0 : 0.01,
      steps_remaining: 12 - i,
      moved_meters: 0,
      total_moved_meters: 0,
      available_tools: TOOLS,
      reward: null,
      done: i === planned.length - 1,
      ...(i === 0
        ? {}
        : {
            model: {
              reply: prose(`reply:${key}:${i}`, perTurn),
              reasoning: prose(`reason:${key}:${i}`, perTurn),
              finish_reason: "end_turn",
              tokens: { input: 1000 + i * 150, output: 200 + Math.floor(unit(`tok:${key}:${i}`) * 600) },
              latency_s: Math.round(unit(`lat:${key}:${i}`) * 5000) / 1000,
              attempts: 1,
              errors: [],
              model_reported: arm,
              response_id: `msg_${key}_${i}`,
              raw: {},
            },
            prompt: prose(`prompt:${key}:${i}`, Math.floor(perTurn / 10)),
          }),
    };
    return { turn, cost };
  });
}

function finish(
  base: Record<string, unknown>,
  turns: unknown[],
  views: ReturnType<typeof episodeViews>,
  planned: Planned[],
  cost: number,
  key: string,
  truth: [number, number],
  guess: [number, number],
  noGuess: boolean,
  forced: boolean,
  distance: number | null,
): Record<string, unknown> {
  const envReward = distance === null || distance > 3300 ? 0.0 : Math.round(Math.exp(-distance / 1000) * 1e6) / 1e6;
  const nLooks = views.filter((v) => v.action.action === "look").length;
  return {
    ...base,
    turns,
    outcome: {
      reward: envReward,
      train_reward: envReward,
      distance_km: distance,
      parsed_ok: !noGuess,
      guess: noGuess ? null : guess,
      guess_country: null,
      verdict: noGuess ? "No guess" : "Guessed",
      country_hit: noGuess ? null : distance! < 400,
      region_hit: null,
      n_looks: nLooks,
      n_maps: planned.filter((x) => x.kind === "map").length,
      n_pins: views.length,
      n_moves: views.filter((v) => v.action.action === "move").length,
      truth,
      action_cost: cost,
      total_moved_meters: 0,
      forced_guess: forced,
      turns_used: planned.length - 1,
      turns_ok: planned.length - 1,
      turns_unparseable: 0,
      turns_provider_error: 0,
      wall_clock_s: 10,
      model_latency_s: 8,
      tokens_in: 12000 + Math.floor(unit(`ti:${key}`) * 4000),
      tokens_out: 2000 + Math.floor(unit(`to:${key}`) * 3000),
    },
  };
}

async function writeEpisodes(root: string, shape: BoardShape, hashes: Record<string, string>): Promise<void> {
  for (let a = 0; a < shape.arms; a++) {
    for (let p = 0; p < shape.k; p++) {
      const dir = join(root, armName(a), `pass${p}`);
      mkdirSync(dir, { recursive: true });
      const file = join(dir, "episodes.jsonl");
      const tmp = `${file}.tmp-${process.pid}`;
      const out = createWriteStream(tmp);
      for (let t = 0; t < shape.tasks; t++) {
        if (!out.write(JSON.stringify(episode(shape, a, p, t, hashes)) + "\n")) await once(out, "drain");
      }
      out.end();
      await once(out, "finish");
      renameSync(tmp, file);
    }
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({
    options: {
      out: { type: "string" },
      arms: { type: "string", default: String(DEFAULT_SHAPE.arms) },
      tasks: { type: "string", default: String(DEFAULT_SHAPE.tasks) },
      k: { type: "string", default: String(DEFAULT_SHAPE.k) },
      "line-kb": { type: "string", default: String(DEFAULT_SHAPE.lineBytes / 1000) },
      jobs: { type: "string", default: String(availableParallelism()) },
      "placeholder-hashes": { type: "boolean", default: false },
    },
  });
  const shape: BoardShape = {
    ...DEFAULT_SHAPE,
    arms: Number(values.arms),
    tasks: Number(values.tasks),
    k: Number(values.k),
    lineBytes: Number(values["line-kb"]) * 1000,
  };
  const b = await ensureBoard(shape, { out: values.out, jobs: Number(values.jobs), placeholderHashes: values["placeholder-hashes"] });
  process.stdout.write(JSON.stringify(b, null, 2) + "\n");
}
